import type { SessionUser } from '@lumi/contract';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { useAuthStore } from '@/lib/auth-store';
import { fakeApi } from '@/test/fake-api';
import { jsonResponse, renderWithProviders } from '@/test/render-with-providers';
import { adminUser, signIn } from '@/test/session-users';
import { AccountSetupRoute } from './account-setup-route';

const withPending = (pending_action: SessionUser['pending_action']): SessionUser => ({
  ...adminUser,
  pending_action,
});

describe('Account setup (a pending action first)', () => {
  afterEach(() => useAuthStore.getState().clear());

  it('changes the temporary password, then goes on to the two-factor setup a role requires', async () => {
    signIn(withPending('password_change'));
    const api = fakeApi({
      'POST /api/auth/change-password': jsonResponse({ ok: true }),
      'GET /api/auth/me': jsonResponse(withPending('two_factor_setup')),
    });
    renderWithProviders(<AccountSetupRoute />, { path: '/account-setup' });
    expect(screen.getByRole('heading', { name: 'Choose a new password' })).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Current password is required')).toBeInTheDocument();
    expect(api.requestsTo('/api/auth/change-password')).toEqual([]);

    await userEvent.type(screen.getByLabelText('Temporary password'), 'Temp-Password-1');
    await userEvent.type(screen.getByLabelText('New password'), 'Quiet-Meadow-4821');
    await userEvent.type(screen.getByLabelText('Confirm new password'), 'Quiet-Meadow-4821');
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));

    expect(
      await screen.findByRole('heading', { name: 'Set up two-factor authentication' }),
    ).toBeInTheDocument();
    expect(screen.getByText(/Your role requires two-factor sign-in/)).toBeInTheDocument();
    expect(api.requestsTo('/api/auth/change-password').map((r) => r.body)).toEqual([
      {
        current_password: 'Temp-Password-1',
        new_password: 'Quiet-Meadow-4821',
        confirm_password: 'Quiet-Meadow-4821',
      },
    ]);
    expect(useAuthStore.getState().user?.pending_action).toBe('two_factor_setup');
  });

  it('goes to the overview once nothing is pending', () => {
    signIn(withPending(null));
    fakeApi();
    renderWithProviders(<AccountSetupRoute />, { path: '/account-setup' });
    expect(screen.getByTestId('current-path')).toHaveTextContent('/overview');
  });

  it('offers Sign out instead', async () => {
    signIn(withPending('two_factor_setup'));
    fakeApi({ 'POST /api/auth/logout': jsonResponse({ ok: true }) });
    renderWithProviders(<AccountSetupRoute />, { path: '/account-setup' });
    await userEvent.click(screen.getByRole('button', { name: 'Sign out' }));
    await expect.poll(() => useAuthStore.getState().isAuthenticated).toBe(false);
  });
});
