import type { Role, SessionUser, User, UserListResponse } from '@lumi/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { useAuthStore } from '@/lib/auth-store';
import { fakeApi, type FakeRoute, type FakeRoutes } from '@/test/fake-api';
import { jsonResponse, renderWithProviders } from '@/test/render-with-providers';
import { UsersPage } from './users-page';
import { adminUser as admin, signIn } from '@/test/session-users';

const reader: SessionUser = {
  ...admin,
  id: 2,
  username: 'rita',
  role: 'reader',
  roles: [{ id: 4, name: 'reader', permissions: ['users:read'] }],
};

function user(id: number, overrides: Partial<User> = {}): User {
  return {
    id,
    username: `user${id}`,
    email: `user${id}@example.com`,
    name: `User ${id}`,
    roles: [{ id: 3, name: 'viewer' }],
    is_active: true,
    two_factor_enabled: false,
    password_change_required: false,
    last_login: null,
    created_at: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}

const roles: Role[] = [
  {
    id: 1,
    name: 'admin',
    description: '',
    permissions: ['*'],
    built_in: true,
    user_count: 1,
    require_two_factor: false,
  },
];

/** Answers GET /api/roles with the roles, GET /api/users with `list`, and `more`. */
function serve(list: FakeRoute, more: FakeRoutes = {}) {
  return fakeApi({ 'GET /api/roles': jsonResponse(roles), 'GET /api/users': list, ...more });
}

describe('UsersPage', () => {
  afterEach(() => useAuthStore.getState().clear());

  it('lists users with roles, status and last login; the own row cannot be edited or deleted', async () => {
    signIn(admin);
    const page: UserListResponse = {
      users: [
        user(1, { username: 'admin', name: 'Administrator', roles: [{ id: 1, name: 'admin' }] }),
        user(2, { username: 'ann', name: 'Ann Lee', is_active: false, last_login: '2025-03-04T10:00:00Z' }),
      ],
      total: 2,
      page: 1,
      pages: 1,
    };
    serve(jsonResponse(page));
    renderWithProviders(<UsersPage />, { path: '/users' });

    expect(screen.getByRole('heading', { name: 'Users' })).toBeInTheDocument();
    expect(screen.getByText('Manage user accounts and permissions')).toBeInTheDocument();
    const annRow = (await screen.findByText('Ann Lee')).closest('tr')!;
    // Narrow screens fold roles, status and last login into the User cell, so the row repeats them.
    expect(annRow).toHaveTextContent('@ann');
    expect(annRow).toHaveTextContent('Inactive');
    expect(annRow).toHaveTextContent('viewer');
    expect(annRow).not.toHaveTextContent('Never');
    expect(within(annRow).getByRole('button', { name: 'Edit ann' })).toBeEnabled();

    const ownRow = screen.getByText('@admin').closest('tr')!;
    expect(ownRow).toHaveTextContent('Active');
    expect(ownRow).toHaveTextContent('Never');
    expect(within(ownRow).getByRole('button', { name: 'Edit admin' })).toBeDisabled();
    expect(within(ownRow).getByRole('button', { name: 'Delete admin' })).toBeDisabled();

    expect(screen.getByRole('button', { name: 'Add User' })).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).not.toBeInTheDocument();
  });

  it('hides Add User, edit and delete without users:write', async () => {
    signIn(reader);
    serve(jsonResponse({ users: [user(5)], total: 1, page: 1, pages: 1 }));
    renderWithProviders(<UsersPage />, { path: '/users' });

    expect(await screen.findByText('User 5')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add User' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit user5' })).not.toBeInTheDocument();
  });

  it('searches after a pause, starting again at page 1, and pages through', async () => {
    signIn(admin);
    const api = serve(({ query }) =>
      jsonResponse({
        users: [user(Number(query.get('page')) * 100)],
        total: 45,
        page: Number(query.get('page')),
        pages: 3,
      }),
    );
    const usersRequests = () => api.requestsTo('/api/users');
    renderWithProviders(<UsersPage />, { path: '/users' });

    await userEvent.click(await screen.findByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Page 2 of 3')).toBeInTheDocument();
    expect(usersRequests().at(-1)?.query.get('page')).toBe('2');

    await userEvent.type(screen.getByRole('searchbox', { name: 'Search users' }), 'ann');
    await waitFor(() => expect(usersRequests().at(-1)?.query.get('search')).toBe('ann'));
    expect(usersRequests().at(-1)?.query.get('page')).toBe('1');
    expect(usersRequests().at(-1)?.query.get('limit')).toBe('20');
    expect(await screen.findByText('Page 1 of 3')).toBeInTheDocument();
  });

  it("shows 'No users found' for an empty result", async () => {
    signIn(admin);
    serve(jsonResponse({ users: [], total: 0, page: 1, pages: 1 }));
    renderWithProviders(<UsersPage />, { path: '/users' });
    expect(await screen.findByText('No users found')).toBeInTheDocument();
  });

  it("shows 'Failed to load users' when the list cannot be loaded", async () => {
    signIn(admin);
    serve(new Response('oops', { status: 500 }));
    renderWithProviders(<UsersPage />, { path: '/users' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load users');
  });

  it('asks before deleting and reloads the list afterwards', async () => {
    signIn(admin);
    let users = [user(2, { username: 'ann', name: 'Ann Lee' })];
    serve(() => jsonResponse({ users, total: users.length, page: 1, pages: 1 }), {
      'DELETE /api/users/2': () => {
        users = [];
        return jsonResponse({ ok: true });
      },
    });
    renderWithProviders(<UsersPage />, { path: '/users' });

    await userEvent.click(await screen.findByRole('button', { name: 'Delete ann' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete User' });
    expect(dialog).toHaveTextContent(
      'Are you sure you want to delete Ann Lee? This action cannot be undone.',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));

    expect(await screen.findByText('No users found')).toBeInTheDocument();
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });
});
