import type { Role, User } from '@lumi/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { fakeApi } from '@/test/fake-api';
import { jsonResponse, renderWithProviders, toasts } from '@/test/render-with-providers';
import { EditUserDialog } from './edit-user-dialog';

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
    permissions: ['metrics:read'],
    built_in: false,
    user_count: 1,
    require_two_factor: false,
  },
];

const ann: User = {
  id: 5,
  username: 'ann',
  email: 'ann@example.com',
  name: 'Ann Lee',
  roles: [{ id: 3, name: 'viewer' }],
  is_active: true,
  two_factor_enabled: false,
  password_change_required: false,
  last_login: null,
  created_at: '2025-01-01T00:00:00.000Z',
};

function renderDialog() {
  const onOpenChange = vi.fn();
  renderWithProviders(<EditUserDialog open onOpenChange={onOpenChange} user={ann} roles={roles} />);
  return { onOpenChange, submit: screen.getByRole('button', { name: 'Update User' }) };
}

describe('EditUserDialog', () => {
  it('shows the user with a read-only username and no password fields', () => {
    renderDialog();
    expect(screen.getByRole('dialog', { name: 'Edit User' })).toBeInTheDocument();
    expect(screen.getByLabelText('Username')).toHaveValue('ann');
    expect(screen.getByLabelText('Username')).toHaveAttribute('readonly');
    expect(screen.getByLabelText('Email')).toHaveValue('ann@example.com');
    expect(screen.getByLabelText('Full Name')).toHaveValue('Ann Lee');
    expect(screen.getByRole('checkbox', { name: /viewer/ })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: /admin/ })).not.toBeChecked();
    expect(screen.getByRole('checkbox', { name: /Active/ })).toBeChecked();
    expect(screen.queryByLabelText(/Password/)).not.toBeInTheDocument();
  });

  it('asks for an email, a name and at least one role', async () => {
    const api = fakeApi();
    const { submit } = renderDialog();
    await userEvent.clear(screen.getByLabelText('Email'));
    await userEvent.clear(screen.getByLabelText('Full Name'));
    await userEvent.click(screen.getByRole('checkbox', { name: /viewer/ }));
    await userEvent.click(submit);

    expect(await screen.findByText('Email is required')).toBeInTheDocument();
    expect(screen.getByText('Name is required')).toBeInTheDocument();
    expect(screen.getByText('At least one role is required')).toBeInTheDocument();
    expect(api.requests).toEqual([]);
  });

  it('checks the email format', async () => {
    const api = fakeApi();
    const { submit } = renderDialog();
    await userEvent.clear(screen.getByLabelText('Email'));
    await userEvent.type(screen.getByLabelText('Email'), 'ann.example.com');
    await userEvent.click(submit);

    expect(await screen.findByText('Invalid email format')).toBeInTheDocument();
    expect(api.requests).toEqual([]);
  });

  it('refuses a name with invisible characters, which could pass for another name', async () => {
    const api = fakeApi();
    const { submit } = renderDialog();
    await userEvent.clear(screen.getByLabelText('Full Name'));
    await userEvent.type(screen.getByLabelText('Full Name'), 'Ann\u200BLee');
    await userEvent.click(submit);

    expect(
      await screen.findByText(
        'Names cannot contain invisible characters, line breaks or text-direction controls',
      ),
    ).toBeInTheDocument();
    expect(api.requests).toEqual([]);
  });

  it('saves email, name, roles and the active state, then closes', async () => {
    const api = fakeApi({ 'PUT /api/users/5': jsonResponse(ann) });
    const { submit, onOpenChange } = renderDialog();
    await userEvent.clear(screen.getByLabelText('Full Name'));
    await userEvent.type(screen.getByLabelText('Full Name'), 'Ann Smith');
    await userEvent.click(screen.getByRole('checkbox', { name: /admin/ }));
    await userEvent.click(screen.getByRole('checkbox', { name: /Active/ }));
    await userEvent.click(submit);

    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false));
    expect(toasts()).toHaveTextContent("User 'ann' saved");
    const [request] = api.requests;
    expect(request?.url).toBe('/api/users/5');
    expect(request?.method).toBe('PUT');
    expect(request?.body).toEqual({
      email: 'ann@example.com',
      name: 'Ann Smith',
      roles: [3, 1],
      is_active: false,
    });
  });

  it("shows 'Updating...' while the server works", async () => {
    fakeApi({ 'PUT /api/users/5': new Promise(() => {}) });
    const { submit } = renderDialog();
    await userEvent.click(submit);

    expect(await screen.findByRole('button', { name: 'Updating...' })).toBeDisabled();
  });

  it("shows the server's detail, or 'Failed to update user' without one", async () => {
    fakeApi({
      'PUT /api/users/5': [
        jsonResponse(
          { detail: 'The last active admin cannot be demoted', code: 'conflict', request_id: '1' },
          409,
        ),
        new Response('oops', { status: 500 }),
      ],
    });
    const { submit, onOpenChange } = renderDialog();

    await userEvent.click(submit);
    expect(await screen.findByRole('alert')).toHaveTextContent('The last active admin cannot be demoted');

    await userEvent.click(submit);
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Failed to update user'));
    expect(onOpenChange).not.toHaveBeenCalled();
  });
});
