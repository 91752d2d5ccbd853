import {
  AUDIT_RESOURCE_TYPES,
  type AuditListResponse,
  type AuditLog,
  type SessionUser,
} from '@lumi/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { useAuthStore } from '@/lib/auth-store';
import { fakeApi } from '@/test/fake-api';
import { jsonResponse, renderWithProviders } from '@/test/render-with-providers';
import { AdminRoute } from './admin-route';
import { adminUser as admin, signIn } from '@/test/session-users';

const viewer: SessionUser = {
  ...admin,
  id: 2,
  username: 'vera',
  role: 'viewer',
  roles: [{ id: 3, name: 'viewer', permissions: ['metrics:read'] }],
};

function entry(overrides: Partial<AuditLog>): AuditLog {
  return {
    id: 1,
    action: 'user.updated',
    user: 'admin',
    timestamp: new Date(Date.now() - 5 * 60_000).toISOString(),
    resource_type: 'user',
    resource_id: '7',
    resource_name: null,
    resource_current_name: null,
    old_value: { email: 'ann@example.com' },
    new_value: { email: 'ann@corp.example' },
    ip_address: '10.0.0.8',
    user_agent: 'Firefox',
    ...overrides,
  };
}

describe('AdminRoute', () => {
  afterEach(() => useAuthStore.getState().clear());

  it('denies access without admin:audit:read and asks the server nothing', () => {
    signIn(viewer);
    const api = fakeApi();
    renderWithProviders(<AdminRoute />, { path: '/admin' });
    expect(screen.getByRole('heading', { name: 'Access Denied' })).toBeInTheDocument();
    expect(screen.getByText("You don't have permission to view admin settings.")).toBeInTheDocument();
    expect(api.requests).toEqual([]);
  });

  it('shows who did what, to what, when and from where', async () => {
    signIn(admin);
    const page: AuditListResponse = {
      logs: [
        entry({ id: 3 }),
        entry({
          id: 2,
          action: 'auth.login_failed',
          user: null,
          resource_type: 'session',
          resource_id: null,
        }),
        entry({ id: 1, action: 'user.created', user: null, ip_address: null, old_value: null }),
        entry({ id: 0, resource_name: 'ann', resource_current_name: 'ann', resource_id: '24' }),
      ],
      next_cursor: null,
    };
    const api = fakeApi({ 'GET /api/admin/audit-logs': jsonResponse(page) });
    renderWithProviders(<AdminRoute />, { path: '/admin' });

    expect(screen.getByRole('heading', { name: 'Administration' })).toBeInTheDocument();
    const list = await screen.findByRole('list', { name: 'Audit log entries' });
    const [updated, failed, created, named] = within(list).getAllByRole('listitem');

    expect(updated).toHaveTextContent('admin');
    expect(updated).toHaveTextContent('Updated user');
    expect(updated).toHaveTextContent('user.updated');
    expect(updated).toHaveTextContent('Resource: user #7');
    expect(updated).toHaveTextContent('IP 10.0.0.8');
    expect(updated).toHaveTextContent(
      new Intl.RelativeTimeFormat(undefined, { style: 'short' }).format(-5, 'minute'),
    );
    // The changes are worked out when the entry's details are opened.
    expect(within(updated!).queryByText('ann@corp.example')).not.toBeInTheDocument();
    await userEvent.click(within(updated!).getByText('Details'));
    expect((await within(updated!).findByText('ann@corp.example')).closest('ins')).not.toBeNull();

    expect(failed).toHaveTextContent('Anonymous');
    expect(failed).toHaveTextContent('Failed to sign in');
    expect(created).toHaveTextContent('System');
    // An entry that kept its resource's name shows it, linked to where the resource is while it exists.
    expect(named).toHaveTextContent('Resource: user ann');
    expect(within(named!).getByRole('link', { name: 'ann' })).toHaveAttribute('href', '/users?search=ann');

    expect(api.requests[0]?.path).toBe('/api/admin/audit-logs');
    expect(api.requests[0]?.query.get('limit')).toBe('50');
  });

  it('loads older entries with the cursor', async () => {
    signIn(admin);
    const api = fakeApi({
      'GET /api/admin/audit-logs': [
        jsonResponse({ logs: [entry({ id: 60 })], next_cursor: 60 }),
        jsonResponse({ logs: [entry({ id: 59, action: 'role.deleted' })], next_cursor: null }),
      ],
    });
    renderWithProviders(<AdminRoute />, { path: '/admin' });

    await userEvent.click(await screen.findByRole('button', { name: 'Load more' }));

    await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(2));
    expect(screen.getAllByRole('listitem')[1]).toHaveTextContent('Deleted role');
    expect(screen.getAllByRole('listitem')).toHaveLength(2);
    expect(api.requests[1]?.query.get('cursor')).toBe('60');
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });

  it('filters by action, resource type, user and dates', async () => {
    signIn(admin);
    const api = fakeApi({ 'GET /api/admin/audit-logs': jsonResponse({ logs: [], next_cursor: null }) });
    renderWithProviders(<AdminRoute />, { path: '/admin' });
    expect(await screen.findByText('No audit logs found')).toBeInTheDocument();

    await userEvent.selectOptions(screen.getByLabelText('Action'), 'user.deleted');
    const types = screen.getByLabelText('Resource type');
    // Every kind of resource the server audits is offered, in words.
    expect(within(types).getByRole('option', { name: 'Alert contact point' })).toHaveValue(
      'alert_contact_point',
    );
    expect(within(types).getAllByRole('option')).toHaveLength(AUDIT_RESOURCE_TYPES.length + 1);
    await userEvent.selectOptions(types, 'user');
    await userEvent.type(screen.getByLabelText('User'), 'admin');
    await userEvent.type(screen.getByLabelText('From'), '2025-05-01');
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }));

    await waitFor(() => expect(api.requests).toHaveLength(2));
    const query = api.requests[1]!.query;
    expect(query.get('action')).toBe('user.deleted');
    expect(query.get('resource_type')).toBe('user');
    expect(query.get('user')).toBe('admin');
    expect(query.get('from')).toBe(new Date('2025-05-01T00:00:00').toISOString());
    expect(query.has('to')).toBe(false);
  });

  it('offers Retry when the log cannot be loaded', async () => {
    signIn(admin);
    fakeApi({
      'GET /api/admin/audit-logs': [
        new Response('oops', { status: 500, statusText: 'Server Error' }),
        jsonResponse({ logs: [entry({})], next_cursor: null }),
      ],
    });
    renderWithProviders(<AdminRoute />, { path: '/admin' });

    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load audit logs');
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    const list = await screen.findByRole('list', { name: 'Audit log entries' });
    expect(list).toHaveTextContent('Updated user');
  });
  it('puts the audit log and the API keys on tabs kept in the URL', async () => {
    signIn(admin);
    const api = fakeApi({
      'GET /api/admin/audit-logs': jsonResponse({ logs: [entry({})], next_cursor: null }),
      'GET /api/admin/api-keys': jsonResponse([]),
    });
    renderWithProviders(<AdminRoute />, { path: '/admin' });

    const tabs = screen.getByRole('tablist', { name: 'Administration sections' });
    expect(within(tabs).getByRole('tab', { name: 'Audit log' })).toHaveAttribute('aria-selected', 'true');
    expect(await screen.findByRole('list', { name: 'Audit log entries' })).toHaveTextContent('Updated user');
    expect(screen.queryByRole('heading', { name: 'API Keys' })).not.toBeInTheDocument();

    within(tabs).getByRole('tab', { name: 'Audit log' }).focus();
    await userEvent.keyboard('{ArrowRight}{Enter}');
    expect(within(tabs).getByRole('tab', { name: 'API keys' })).toHaveAttribute('aria-selected', 'true');
    expect(await screen.findByText('No API keys yet')).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Audit log entries' })).not.toBeInTheDocument();
    expect(api.requests.map((request) => request.path)).toContain('/api/admin/api-keys');
  });

  it('shows only the API keys to someone who manages keys without reading the audit log', async () => {
    signIn({ ...viewer, roles: [{ id: 4, name: 'keeper', permissions: ['admin:keys:write'] }] });
    const api = fakeApi({ 'GET /api/admin/api-keys': jsonResponse([]) });
    renderWithProviders(<AdminRoute />, { path: '/admin' });

    expect(await screen.findByText('No API keys yet')).toBeInTheDocument();
    expect(screen.queryByRole('tablist')).not.toBeInTheDocument();
    expect(api.requests.map((request) => request.path)).toEqual(['/api/admin/api-keys']);
  });
});
