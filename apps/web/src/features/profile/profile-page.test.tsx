import { MESSAGES } from '@lumi/contract';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, type FakeApi } from '@/test/fake-api';
import { useAuthStore } from '@/lib/auth-store';
import { jsonResponse, renderWithProviders } from '@/test/render-with-providers';
import { SIGN_OUT_DELAY_MS } from './hooks/use-profile-form';
import { ProfilePage } from './profile-page';

const profile = {
  id: 1,
  username: 'admin',
  email: 'admin@example.com',
  name: 'Administrator',
  two_factor_enabled: false,
};
const sessionUser = {
  id: 1,
  username: 'admin',
  email: 'admin@example.com',
  name: 'Administrator',
  role: 'admin',
  roles: [{ id: 1, name: 'admin', permissions: ['*'] }],
  pending_action: null,
};

async function renderProfile(onSignOut = vi.fn()) {
  renderWithProviders(<ProfilePage onSignOut={onSignOut} />, { path: '/profile' });
  await screen.findByLabelText('Name');
  return {
    name: screen.getByLabelText('Name'),
    email: screen.getByLabelText('Email'),
    save: screen.getByRole('button', { name: 'Save Changes' }),
  };
}

async function openPasswordSection() {
  await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
  return {
    current: screen.getByLabelText('Current Password'),
    next: screen.getByLabelText('New Password'),
    confirm: screen.getByLabelText('Confirm New Password'),
  };
}

describe('ProfilePage', () => {
  let api: FakeApi;
  const requestsTo = (path: string) => api.requestsTo(`/api${path}`);

  beforeEach(() => {
    useAuthStore.getState().setSession('token', sessionUser);
    api = fakeApi({
      'GET /api/auth/profile': jsonResponse(profile),
      'PUT /api/auth/profile': ({ body }) => jsonResponse({ ...profile, ...(body as object) }),
      'POST /api/auth/change-password': jsonResponse({ ok: true }),
    });
  });
  afterEach(() => {
    vi.useRealTimers();
    useAuthStore.getState().clear();
  });

  it('shows the current values, the read-only username and the password hint', async () => {
    const { name, email } = await renderProfile();
    expect(name).toHaveValue('Administrator');
    expect(email).toHaveValue('admin@example.com');
    expect(screen.getByLabelText('Username')).toHaveAttribute('readonly');
    expect(screen.getByText('Username cannot be changed')).toBeInTheDocument();
    expect(screen.getByText('Use a strong password with at least 8 characters')).toBeInTheDocument();
  });

  it('requires a name and an email', async () => {
    const { name, email, save } = await renderProfile();
    await userEvent.clear(name);
    await userEvent.clear(email);
    await userEvent.click(save);

    expect(await screen.findByText(MESSAGES.nameRequired)).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.emailRequired)).toBeInTheDocument();
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(requestsTo('/auth/profile')).toHaveLength(1);
  });

  it('rejects an email that is not address-like', async () => {
    const { email, save } = await renderProfile();
    await userEvent.clear(email);
    await userEvent.type(email, 'not-an-email');
    await userEvent.click(save);

    expect(await screen.findByText(MESSAGES.emailInvalid)).toBeInTheDocument();
  });

  it('requires the current and new password once the password section is open', async () => {
    const { save } = await renderProfile();
    await openPasswordSection();
    await userEvent.click(save);

    expect(await screen.findByText(MESSAGES.currentPasswordRequired)).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.newPasswordRequired)).toBeInTheDocument();
  });

  it('asks for at least 8 characters and a matching confirmation', async () => {
    const { save } = await renderProfile();
    const { current, next, confirm } = await openPasswordSection();
    await userEvent.type(current, 'Sunny-Harbor-2291');
    await userEvent.type(next, 'short');
    await userEvent.type(confirm, 'shorter');
    await userEvent.click(save);

    expect(await screen.findByText(MESSAGES.passwordMin)).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.passwordsMismatch)).toBeInTheDocument();
    expect(requestsTo('/auth/change-password')).toHaveLength(0);
  });

  it('clears a field error as soon as the field is edited', async () => {
    const { name, save } = await renderProfile();
    await userEvent.clear(name);
    await userEvent.click(save);
    expect(await screen.findByText(MESSAGES.nameRequired)).toBeInTheDocument();

    await userEvent.type(name, 'A');

    expect(screen.queryByText(MESSAGES.nameRequired)).not.toBeInTheDocument();
    expect(name).not.toHaveAttribute('aria-invalid');
  });

  it('cancelling the password change hides the fields and restores the hint', async () => {
    await renderProfile();
    await openPasswordSection();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel password change' }));

    expect(screen.queryByLabelText('Current Password')).not.toBeInTheDocument();
    expect(screen.getByText('Use a strong password with at least 8 characters')).toBeInTheDocument();
  });

  it('sends only the changed fields and updates the stored user', async () => {
    const { email, save } = await renderProfile();
    await userEvent.clear(email);
    await userEvent.type(email, 'new@example.com');
    await userEvent.click(save);

    expect(await screen.findByText('Changes saved successfully')).toBeInTheDocument();
    const put = requestsTo('/auth/profile').find((r) => r.method === 'PUT');
    expect(put?.body).toEqual({ email: 'new@example.com' });
    expect(useAuthStore.getState().user?.email).toBe('new@example.com');
  });

  it('clears the success banner on the next edit, such as opening the password change', async () => {
    const { name, save } = await renderProfile();
    await userEvent.type(name, ' Jr');
    await userEvent.click(save);
    expect(await screen.findByText('Changes saved successfully')).toBeInTheDocument();

    await openPasswordSection();
    expect(screen.queryByText('Changes saved successfully')).not.toBeInTheDocument();
  });

  it('maps server field errors onto the form and shows the detail', async () => {
    api.route({
      'POST /api/auth/change-password': jsonResponse(
        {
          detail: 'Current password is incorrect',
          code: 'validation_failed',
          errors: [{ path: 'current_password', message: 'Current password is incorrect' }],
          request_id: '1',
        },
        422,
      ),
    });
    const { save } = await renderProfile();
    const { current, next, confirm } = await openPasswordSection();
    await userEvent.type(current, 'not-my-password');
    await userEvent.type(next, 'Brand-New-Pass-77');
    await userEvent.type(confirm, 'Brand-New-Pass-77');
    await userEvent.click(save);

    expect(await screen.findByRole('alert')).toHaveTextContent('Current password is incorrect');
    expect(current).toHaveAttribute('aria-invalid', 'true');

    await userEvent.click(screen.getByRole('button', { name: 'Cancel password change' }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('clears the error banner when a field is edited, and shows the next failure again', async () => {
    api.route({
      'PUT /api/auth/profile': jsonResponse(
        { detail: 'Database unavailable', code: 'x', request_id: '1' },
        503,
      ),
    });
    const { name, save } = await renderProfile();
    await userEvent.type(name, ' Jr');
    await userEvent.click(save);
    expect(await screen.findByRole('alert')).toHaveTextContent('Database unavailable');

    await userEvent.type(name, '.');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await userEvent.click(save);
    expect(await screen.findByRole('alert')).toHaveTextContent('Database unavailable');
  });

  it('signs out two seconds after a password change', async () => {
    const onSignOut = vi.fn();
    const { save } = await renderProfile(onSignOut);
    const { current, next, confirm } = await openPasswordSection();
    await userEvent.type(current, 'Sunny-Harbor-2291');
    await userEvent.type(next, 'Brand-New-Pass-77');
    await userEvent.type(confirm, 'Brand-New-Pass-77');
    // Fake timers from the save on, so the two seconds pass at once instead of in real time.
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      await userEvent.click(save);
      expect(
        await screen.findByText('Password changed successfully. Please log in with your new password.'),
      ).toBeInTheDocument();
      await vi.advanceTimersByTimeAsync(SIGN_OUT_DELAY_MS - 500);
      expect(onSignOut).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(500);
      expect(onSignOut).toHaveBeenCalledOnce();
    } finally {
      vi.useRealTimers();
    }
  });
});
