import { MESSAGES, type Role } from '@lumi/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { fakeApi } from '@/test/fake-api';
import { jsonResponse, renderWithProviders, toasts } from '@/test/render-with-providers';
import { CreateUserDialog } from './create-user-dialog';

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
    user_count: 0,
    require_two_factor: false,
  },
];

function renderDialog() {
  const onOpenChange = vi.fn();
  renderWithProviders(<CreateUserDialog open onOpenChange={onOpenChange} roles={roles} />);
  return { onOpenChange, submit: screen.getByRole('button', { name: 'Create User' }) };
}

async function fillValidForm({ confirm = 'Sunny-Harbor-2291' } = {}) {
  await userEvent.type(screen.getByLabelText('Username'), 'ann');
  await userEvent.type(screen.getByLabelText('Email'), 'ann@example.com');
  await userEvent.type(screen.getByLabelText('Full Name'), 'Ann Lee');
  await userEvent.type(screen.getByLabelText('Password'), 'Sunny-Harbor-2291');
  await userEvent.type(screen.getByLabelText('Confirm Password'), confirm);
  await userEvent.click(screen.getByRole('checkbox', { name: /viewer/ }));
}

describe('CreateUserDialog', () => {
  it('offers every role from the server and asks for every field', async () => {
    const api = fakeApi();
    const { submit } = renderDialog();
    expect(screen.getByRole('dialog', { name: 'Create New User' })).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: /admin/ })).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: /viewer/ })).toBeInTheDocument();

    await userEvent.click(submit);

    expect(await screen.findByText('Username is required')).toBeInTheDocument();
    expect(screen.getByText('Email is required')).toBeInTheDocument();
    expect(screen.getByText('Name is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(screen.getByText('At least one role is required')).toBeInTheDocument();
    expect(screen.getByLabelText('Username')).toHaveAttribute('aria-invalid', 'true');
    expect(api.requests).toEqual([]);
  });

  it('checks the username length, the email format and the password length', async () => {
    const api = fakeApi();
    const { submit } = renderDialog();
    await userEvent.type(screen.getByLabelText('Username'), 'ab');
    await userEvent.type(screen.getByLabelText('Email'), 'not-an-email');
    await userEvent.type(screen.getByLabelText('Full Name'), 'Ann Lee');
    await userEvent.type(screen.getByLabelText('Password'), 'short');
    await userEvent.type(screen.getByLabelText('Confirm Password'), 'short');
    await userEvent.click(submit);

    expect(await screen.findByText('Username must be at least 3 characters')).toBeInTheDocument();
    expect(screen.getByText('Invalid email format')).toBeInTheDocument();
    expect(screen.getByText('Password must be at least 8 characters')).toBeInTheDocument();
    expect(api.requests).toEqual([]);
  });

  it('asks for a matching confirmation', async () => {
    const api = fakeApi();
    const { submit } = renderDialog();
    await fillValidForm({ confirm: 'Sunny-Harbor-2292' });
    await userEvent.click(submit);

    expect(await screen.findByText('Passwords do not match')).toBeInTheDocument();
    expect(api.requests).toEqual([]);
  });

  it('creates the user without the confirmation and closes', async () => {
    const api = fakeApi({ 'POST /api/users': jsonResponse({ id: 9 }, 201) });
    const { submit, onOpenChange } = renderDialog();
    await fillValidForm();
    await userEvent.click(submit);

    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false));
    expect(toasts()).toHaveTextContent("User 'ann' created");
    const [request] = api.requests;
    expect(request?.url).toBe('/api/users');
    expect(request?.method).toBe('POST');
    expect(request?.body).toEqual({
      username: 'ann',
      email: 'ann@example.com',
      name: 'Ann Lee',
      password: 'Sunny-Harbor-2291',
      roles: [3],
    });
  });

  it("shows 'Creating...' while the server works", async () => {
    fakeApi({ 'POST /api/users': new Promise(() => {}) });
    const { submit } = renderDialog();
    await fillValidForm();
    await userEvent.click(submit);

    expect(await screen.findByRole('button', { name: 'Creating...' })).toBeDisabled();
  });

  it("puts the server's field messages under their fields", async () => {
    fakeApi({
      'POST /api/users': jsonResponse(
        {
          detail: MESSAGES.passwordCommon,
          code: 'validation_failed',
          errors: [{ path: 'password', message: MESSAGES.passwordCommon }],
          request_id: '1',
        },
        422,
      ),
    });
    const { submit, onOpenChange } = renderDialog();
    await fillValidForm();
    await userEvent.click(submit);

    expect(await screen.findByText(MESSAGES.passwordCommon)).toBeInTheDocument();
    expect(screen.getByLabelText('Password')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(onOpenChange).not.toHaveBeenCalled();
  });

  it("shows the server's detail, or 'Failed to create user' without one", async () => {
    fakeApi({
      'POST /api/users': [
        jsonResponse({ detail: 'The username ann is already taken', code: 'conflict', request_id: '1' }, 409),
        new Response('oops', { status: 500 }),
      ],
    });
    const { submit } = renderDialog();
    await fillValidForm();

    await userEvent.click(submit);
    expect(await screen.findByRole('alert')).toHaveTextContent('The username ann is already taken');

    await userEvent.click(submit);
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Failed to create user'));
  });
});
