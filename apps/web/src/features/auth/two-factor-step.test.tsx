import type { LoginResponse, TwoFactorChallengeResponse } from '@lumi/contract';
import { TWO_FACTOR_MESSAGES } from '@lumi/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { useAuthStore } from '@/lib/auth-store';
import { fakeApi, type FakeRoute } from '@/test/fake-api';
import { jsonResponse, renderWithProviders } from '@/test/render-with-providers';
import { adminUser as user } from '@/test/session-users';
import { LoginPage } from './login-page';

const challenge: TwoFactorChallengeResponse = {
  two_factor_required: true,
  challenge: 'c'.repeat(43),
  expires_in: 300,
};
const signedIn: LoginResponse = { access_token: 'token', token_type: 'bearer', expires_in: 900, user };

function refusal(code: string, detail: string, status = 401) {
  return jsonResponse({ detail, code, request_id: '1' }, status);
}

/** Signs in with the password; the server asks for a second factor, answered by `verify`. */
async function reachSecondStep(verify: FakeRoute) {
  const api = fakeApi({
    'POST /api/auth/login': jsonResponse(challenge),
    'POST /api/auth/2fa/verify': verify,
  });
  renderWithProviders(<LoginPage />, { path: '/login' });
  await userEvent.type(screen.getByLabelText('Username'), 'admin');
  await userEvent.type(screen.getByLabelText('Password'), 'Sunny-Harbor-2291');
  await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
  const code = await screen.findByLabelText('Authentication code');
  return { api, code };
}

describe('Sign-in, second step', () => {
  beforeEach(() => useAuthStore.getState().clear());

  it('asks for a code with one-time-code autofill and a numeric keyboard, and stores no session yet', async () => {
    const { code } = await reachSecondStep(jsonResponse(signedIn));
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    expect(code).toHaveAttribute('inputmode', 'numeric');
    expect(code).toHaveFocus();
    expect(useAuthStore.getState().isAuthenticated).toBe(false);
    expect(screen.queryByLabelText('Password')).not.toBeInTheDocument();
  });

  it('checks the code before sending it, then completes the sign-in with the challenge and the code', async () => {
    const { api, code } = await reachSecondStep(jsonResponse(signedIn));
    await userEvent.type(code, '12345');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText(TWO_FACTOR_MESSAGES.codeFormat)).toBeInTheDocument();
    expect(api.requestsTo('/api/auth/2fa/verify')).toEqual([]);

    await userEvent.clear(code);
    await userEvent.type(code, '123 456');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));

    expect(await screen.findByTestId('current-path')).toHaveTextContent('/overview');
    expect(api.requestsTo('/api/auth/2fa/verify').map((r) => r.body)).toEqual([
      { challenge: challenge.challenge, code: '123456' },
    ]);
    expect(useAuthStore.getState().accessToken).toBe('token');
  });

  it("shows a wrong code's refusal and lets the user try again with the same challenge", async () => {
    const { api, code } = await reachSecondStep([
      refusal('invalid_credentials', 'The code is not valid'),
      jsonResponse(signedIn),
    ]);
    await userEvent.type(code, '000000');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The code is not valid');
    await waitFor(() => expect(screen.getByLabelText('Authentication code')).toHaveFocus());

    await userEvent.clear(screen.getByLabelText('Authentication code'));
    await userEvent.type(screen.getByLabelText('Authentication code'), '111111');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByTestId('current-path')).toHaveTextContent('/overview');
    expect(api.requestsTo('/api/auth/2fa/verify')).toHaveLength(2);
  });

  it('takes a recovery code instead, sent as recovery_code only', async () => {
    const { api } = await reachSecondStep(jsonResponse(signedIn));
    await userEvent.click(screen.getByRole('button', { name: 'Use a recovery code instead' }));
    const recovery = screen.getByLabelText('Recovery code');
    expect(recovery).toHaveFocus();
    await userEvent.type(recovery, "abcde'23456");
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText(TWO_FACTOR_MESSAGES.recoveryCodeFormat)).toBeInTheDocument();

    await userEvent.clear(recovery);
    await userEvent.type(recovery, 'ABCDE-23456');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByTestId('current-path')).toHaveTextContent('/overview');
    expect(api.requestsTo('/api/auth/2fa/verify').map((r) => r.body)).toEqual([
      { challenge: challenge.challenge, recovery_code: 'abcde23456' },
    ]);
  });

  it('goes back to the password when the challenge expired, saying why', async () => {
    const detail = 'The sign-in has expired. Sign in again.';
    const { code } = await reachSecondStep(refusal('challenge_expired', detail));
    await userEvent.type(code, '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(detail);
    expect(screen.getByLabelText('Password')).toHaveValue('');
    expect(screen.getByLabelText('Username')).toHaveValue('admin');
    expect(screen.queryByLabelText('Authentication code')).not.toBeInTheDocument();
    expect(useAuthStore.getState().isAuthenticated).toBe(false);
  });

  it('shows a throttled attempt as the server words it', async () => {
    const detail = 'Too many attempts. Try again in 15 minutes.';
    const { code } = await reachSecondStep(refusal('too_many_requests', detail, 429));
    await userEvent.type(code, '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(detail);
    expect(screen.getByLabelText('Authentication code')).toBeInTheDocument();
  });
});
