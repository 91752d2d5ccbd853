import type { AuthSession, SessionUser, User } from '@lumi/contract';
import { MESSAGES } from '@lumi/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { useAuthStore } from '@/lib/auth-store';
import { fakeApi, type FakeRoutes } from '@/test/fake-api';
import { jsonResponse, renderWithProviders } from '@/test/render-with-providers';
import { adminUser as admin, signIn } from '@/test/session-users';
import { UsersPage } from './users-page';

const reader: SessionUser = {
  ...admin,
  id: 2,
  username: 'rita',
  role: 'reader',
  roles: [{ id: 4, name: 'reader', permissions: ['users:read'] }],
};

const ann: User = {
  id: 5,
  username: 'ann',
  email: 'ann@example.com',
  name: 'Ann Lee',
  roles: [{ id: 3, name: 'viewer' }],
  is_active: true,
  two_factor_enabled: true,
  password_change_required: false,
  last_login: null,
  created_at: '2025-01-01T00:00:00.000Z',
};
const self: User = { ...ann, id: 1, username: 'admin', name: 'Administrator', two_factor_enabled: true };

const annSession: AuthSession = {
  id: 's1',
  created_at: '2026-11-20T09:00:00Z',
  last_used_at: '2026-11-25T03:00:00Z',
  expires_at: '2026-12-20T09:00:00Z',
  ip_address: '198.51.100.4',
  user_agent: 'Mozilla/5.0',
  browser: 'Edge 130',
  os: 'Windows',
  current: false,
};

function serve(more: FakeRoutes = {}) {
  return fakeApi({
    'GET /api/roles': jsonResponse([]),
    'GET /api/users': jsonResponse({ users: [self, ann], total: 2, page: 1, pages: 1 }),
    ...more,
  });
}

async function openAction(username: string, action: string) {
  await userEvent.click(await screen.findByRole('button', { name: `More actions for ${username}` }));
  await userEvent.click(await screen.findByRole('menuitem', { name: action }));
}

describe('Users → account security', () => {
  afterEach(() => useAuthStore.getState().clear());

  it('marks two-factor in the list and offers the resets only for other users', async () => {
    signIn(admin);
    serve();
    renderWithProviders(<UsersPage />, { path: '/users' });
    const annRow = (await screen.findByText('Ann Lee')).closest('tr')!;
    expect(within(annRow).getAllByText('Two-factor').length).toBeGreaterThan(0);

    await userEvent.click(screen.getByRole('button', { name: 'More actions for admin' }));
    expect(await screen.findByRole('menuitem', { name: 'Sessions' })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Reset two-factor' })).not.toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Set temporary password' })).not.toBeInTheDocument();
    await userEvent.keyboard('{Escape}');

    await userEvent.click(screen.getByRole('button', { name: 'More actions for ann' }));
    expect(await screen.findByRole('menuitem', { name: 'Reset two-factor' })).toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: 'Set temporary password' })).toBeInTheDocument();
  });

  it('shows only the sessions, without Sign out everywhere, to a reader', async () => {
    signIn(reader);
    serve({ 'GET /api/users/:id/sessions': jsonResponse({ sessions: [annSession] }) });
    renderWithProviders(<UsersPage />, { path: '/users' });
    await userEvent.click(await screen.findByRole('button', { name: 'More actions for ann' }));
    expect(screen.queryByRole('menuitem', { name: 'Set temporary password' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('menuitem', { name: 'Sessions' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sessions of Ann Lee' });
    expect(await within(dialog).findByText('Edge 130 on Windows')).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Sign out everywhere' })).not.toBeInTheDocument();
  });

  it("lists a user's sessions and signs them out everywhere after a confirmation", async () => {
    signIn(admin);
    const api = serve({
      'GET /api/users/:id/sessions': [
        jsonResponse({ sessions: [annSession] }),
        jsonResponse({ sessions: [] }),
      ],
      'POST /api/users/:id/sessions/revoke': jsonResponse({ revoked: 1 }),
    });
    renderWithProviders(<UsersPage />, { path: '/users' });
    await openAction('ann', 'Sessions');
    const dialog = await screen.findByRole('dialog', { name: 'Sessions of Ann Lee' });
    expect(await within(dialog).findByText('198.51.100.4')).toBeInTheDocument();

    await userEvent.click(within(dialog).getByRole('button', { name: 'Sign out everywhere' }));
    expect(within(dialog).getByText('Sign out everywhere?')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(api.requestsTo('/api/users/5/sessions/revoke')).toEqual([]);

    await userEvent.click(within(dialog).getByRole('button', { name: 'Sign out everywhere' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Yes, sign out everywhere' }));
    expect(await within(dialog).findByText('Ann Lee is not signed in anywhere.')).toBeInTheDocument();
    expect(api.requestsTo('/api/users/5/sessions/revoke', 'POST')).toHaveLength(1);
  });

  it('resets two-factor after a confirmation', async () => {
    signIn(admin);
    const api = serve({ 'POST /api/users/:id/2fa/reset': jsonResponse({ ok: true }) });
    renderWithProviders(<UsersPage />, { path: '/users' });
    await openAction('ann', 'Reset two-factor');
    const dialog = screen.getByRole('alertdialog', { name: 'Reset two-factor authentication' });
    expect(dialog).toHaveTextContent('recovery codes stop working');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reset' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(api.requestsTo('/api/users/5/2fa/reset', 'POST')).toHaveLength(1);
  });

  it('sets a temporary password: checked twice before sending, a weak one refused under its field', async () => {
    signIn(admin);
    const api = serve({
      'POST /api/users/:id/password-reset': [
        jsonResponse(
          {
            detail: 'Check the input',
            code: 'validation_error',
            errors: [{ path: 'temporary_password', message: 'This password is too common' }],
            request_id: '1',
          },
          422,
        ),
        jsonResponse({ ok: true }),
      ],
    });
    renderWithProviders(<UsersPage />, { path: '/users' });
    await openAction('ann', 'Set temporary password');
    const dialog = screen.getByRole('dialog', { name: 'Set temporary password' });
    const submit = within(dialog).getByRole('button', { name: 'Save Password' });

    await userEvent.click(submit);
    expect(await within(dialog).findByText('Temporary password is required')).toBeInTheDocument();
    await userEvent.type(within(dialog).getByLabelText('Temporary password'), 'short');
    await userEvent.click(submit);
    expect(await within(dialog).findByText(MESSAGES.passwordMin)).toBeInTheDocument();

    await userEvent.clear(within(dialog).getByLabelText('Temporary password'));
    await userEvent.type(within(dialog).getByLabelText('Temporary password'), 'password123');
    await userEvent.type(within(dialog).getByLabelText('Confirm temporary password'), 'password124');
    await userEvent.click(submit);
    expect(await within(dialog).findByText(MESSAGES.passwordsMismatch)).toBeInTheDocument();
    expect(api.requestsTo('/api/users/5/password-reset')).toEqual([]);

    await userEvent.clear(within(dialog).getByLabelText('Confirm temporary password'));
    await userEvent.type(within(dialog).getByLabelText('Confirm temporary password'), 'password123');
    await userEvent.click(submit);
    expect(await within(dialog).findByText('This password is too common')).toBeInTheDocument();

    for (const field of ['Temporary password', 'Confirm temporary password']) {
      await userEvent.clear(within(dialog).getByLabelText(field));
      await userEvent.type(within(dialog).getByLabelText(field), 'Quiet-Meadow-4821');
    }
    await userEvent.click(submit);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.requestsTo('/api/users/5/password-reset').map((r) => r.body)).toEqual([
      { temporary_password: 'password123' },
      { temporary_password: 'Quiet-Meadow-4821' },
    ]);
  });
});
