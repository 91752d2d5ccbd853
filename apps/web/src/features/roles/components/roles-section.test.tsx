import type { Role } from '@lumi/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useAuthStore } from '@/lib/auth-store';
import { fakeApi, type FakeApi, type FakeRoute } from '@/test/fake-api';
import { jsonResponse, renderWithProviders } from '@/test/render-with-providers';
import { RolesSection } from './roles-section';
import { signIn } from '@/test/session-users';

const roles: Role[] = [
  {
    id: 1,
    name: 'admin',
    description: 'Full access',
    permissions: ['*'],
    built_in: true,
    user_count: 1,
    require_two_factor: false,
  },
  {
    id: 3,
    name: 'viewer',
    description: 'Read-only',
    permissions: ['metrics:read', 'config:read'],
    built_in: false,
    user_count: 2,
    require_two_factor: false,
  },
];

/** GET /api/roles answers the roles; a create, an update or a delete answers `other`. */
function serve(other: FakeRoute) {
  return fakeApi({
    'GET /api/roles': jsonResponse(roles),
    'POST /api/roles': other,
    'PUT /api/roles/:id': other,
    'DELETE /api/roles/:id': other,
  });
}

function lastWrite(api: FakeApi) {
  const { url, method, body } = api.requests.findLast((r) => r.method !== 'GET')!;
  return { url, method, body: body ?? null };
}

describe('RolesSection', () => {
  beforeEach(() => signIn());
  afterEach(() => useAuthStore.getState().clear());

  it('lists roles; the built-in admin role cannot be deleted, and says why', async () => {
    serve(jsonResponse({}));
    renderWithProviders(<RolesSection />);

    const adminRow = (await screen.findByText('Full access')).closest('tr')!;
    expect(within(adminRow).getByText('Built-in')).toBeInTheDocument();
    expect(adminRow).toHaveTextContent('All permissions');
    expect(
      within(adminRow).getByText(
        /The built-in admin role cannot be deleted; only whether it requires two-factor/,
      ),
    ).toBeInTheDocument();
    expect(within(adminRow).getByRole('button', { name: 'Edit role admin' })).toBeEnabled();
    expect(within(adminRow).getByRole('button', { name: 'Delete role admin' })).toBeDisabled();

    const viewerRow = screen.getByText('Read-only').closest('tr')!;
    expect(viewerRow).toHaveTextContent('2 permissions');
    expect(viewerRow).toHaveTextContent('metrics:read');
    expect(within(viewerRow).getByRole('button', { name: 'Edit role viewer' })).toBeEnabled();
  });

  it('creates a role with permissions from the catalogue', async () => {
    const api = serve(jsonResponse({ ...roles[1], id: 9, name: 'support' }, 201));
    renderWithProviders(<RolesSection />);

    await userEvent.click(await screen.findByRole('button', { name: 'Add Role' }));
    const dialog = screen.getByRole('dialog', { name: 'Create Role' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Role' }));
    expect(await within(dialog).findByText('Role name is required')).toBeInTheDocument();
    expect(within(dialog).getByText('Choose at least one permission')).toBeInTheDocument();

    await userEvent.type(within(dialog).getByLabelText('Name'), 'support');
    await userEvent.type(within(dialog).getByLabelText('Description'), 'Helps users');
    await userEvent.click(within(dialog).getByRole('checkbox', { name: /View users and roles/ }));
    await userEvent.click(within(dialog).getByRole('checkbox', { name: /Read the audit log/ }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Role' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(lastWrite(api)).toEqual({
      url: '/api/roles',
      method: 'POST',
      body: {
        name: 'support',
        description: 'Helps users',
        permissions: ['users:read', 'admin:audit:read'],
        require_two_factor: false,
      },
    });
  });

  it("sends only '*' when All permissions is chosen", async () => {
    const api = serve(jsonResponse(roles[1]));
    renderWithProviders(<RolesSection />);

    await userEvent.click(await screen.findByRole('button', { name: 'Edit role viewer' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Role' });
    expect(within(dialog).getByLabelText('Name')).toHaveValue('viewer');
    expect(within(dialog).getByRole('checkbox', { name: /View metrics/ })).toBeChecked();
    await userEvent.click(within(dialog).getByRole('checkbox', { name: /All permissions/ }));
    expect(within(dialog).getByRole('checkbox', { name: /View metrics/ })).toBeDisabled();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Update Role' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(lastWrite(api)).toEqual({
      url: '/api/roles/3',
      method: 'PUT',
      body: { name: 'viewer', description: 'Read-only', permissions: ['*'], require_two_factor: false },
    });
  });

  it('lets the built-in role require two-factor sign-in, its name and permissions locked', async () => {
    const api = serve(jsonResponse({ ...roles[0], require_two_factor: true }));
    renderWithProviders(<RolesSection />);

    await userEvent.click(await screen.findByRole('button', { name: 'Edit role admin' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Role' });
    expect(within(dialog).getByLabelText('Name')).toBeDisabled();
    expect(within(dialog).getByRole('checkbox', { name: /All permissions/ })).toBeDisabled();
    const require = within(dialog).getByRole('checkbox', { name: /Require two-factor/ });
    expect(require).not.toBeChecked();
    await userEvent.click(require);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Update Role' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(lastWrite(api)).toEqual({
      url: '/api/roles/1',
      method: 'PUT',
      body: { name: 'admin', description: 'Full access', permissions: ['*'], require_two_factor: true },
    });
  });

  it('shows why the server refused to delete a role still in use', async () => {
    const detail = "The role 'viewer' is still assigned to 2 users; remove it from them first";
    serve(jsonResponse({ detail, code: 'conflict', request_id: '1' }, 409));
    renderWithProviders(<RolesSection />);

    await userEvent.click(await screen.findByRole('button', { name: 'Delete role viewer' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete Role' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));

    expect(await within(dialog).findByRole('alert')).toHaveTextContent(detail);
  });
});
