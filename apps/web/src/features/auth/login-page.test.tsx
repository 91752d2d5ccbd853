import type { LoginResponse } from '@lumi/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { useAuthStore } from '@/lib/auth-store';
import { fakeApi } from '@/test/fake-api';
import { jsonResponse, renderWithProviders } from '@/test/render-with-providers';
import { LoginPage } from './login-page';
import { adminUser as user } from '@/test/session-users';

const signedIn: LoginResponse = { access_token: 'token', token_type: 'bearer', expires_in: 900, user };

function renderLogin() {
  renderWithProviders(<LoginPage />, { path: '/login' });
  return {
    username: screen.getByLabelText('Username'),
    password: screen.getByLabelText('Password'),
    submit: screen.getByRole('button', { name: 'Sign in' }),
  };
}

describe('LoginPage', () => {
  beforeEach(() => useAuthStore.getState().clear());

  it('shows the title and asks for both fields before calling the server', async () => {
    const api = fakeApi();
    const { submit } = renderLogin();
    expect(screen.getByRole('heading', { name: 'Lumi Admin' })).toBeInTheDocument();
    expect(screen.getByText('Sign in to access the admin dashboard')).toBeInTheDocument();

    await userEvent.click(submit);

    expect(await screen.findByText('Username is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(screen.getByLabelText('Username')).toHaveAttribute('aria-invalid', 'true');
    expect(api.requests).toEqual([]);
  });

  it("shows the server's detail in an 'Authentication failed' box", async () => {
    fakeApi({
      'POST /api/auth/login': jsonResponse(
        { detail: 'Invalid username or password', code: 'invalid_credentials', request_id: '1' },
        401,
      ),
    });
    const { username, password, submit } = renderLogin();
    await userEvent.type(username, 'admin');
    await userEvent.type(password, 'wrong-password');
    await userEvent.click(submit);

    const box = await screen.findByRole('alert');
    expect(box).toHaveTextContent('Authentication failed');
    expect(box).toHaveTextContent('Invalid username or password');
    expect(useAuthStore.getState().isAuthenticated).toBe(false);
  });

  it('shows a throttling detail as the server wrote it', async () => {
    const detail = 'Too many failed sign-ins. Try again in 15 minutes.';
    fakeApi({
      'POST /api/auth/login': jsonResponse({ detail, code: 'too_many_requests', request_id: '2' }, 429),
    });
    const { username, password, submit } = renderLogin();
    await userEvent.type(username, 'admin');
    await userEvent.type(password, 'whatever');
    await userEvent.click(submit);

    expect(await screen.findByRole('alert')).toHaveTextContent(detail);
  });

  it('falls back to the generic message when the server gives no detail', async () => {
    fakeApi({ 'POST /api/auth/login': () => Promise.reject(new TypeError('Failed to fetch')) });
    const { username, password, submit } = renderLogin();
    await userEvent.type(username, 'admin');
    await userEvent.type(password, 'whatever');
    await userEvent.click(submit);

    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid username or password');
  });

  it('disables both inputs while signing in, then stores the session and goes to the overview', async () => {
    let answer: (response: Response) => void = () => {};
    const api = fakeApi({ 'POST /api/auth/login': new Promise<Response>((resolve) => (answer = resolve)) });
    const { username, password, submit } = renderLogin();
    await userEvent.type(username, 'admin');
    await userEvent.type(password, 'Sunny-Harbor-2291');
    await userEvent.click(submit);

    expect(await screen.findByRole('button', { name: 'Signing in...' })).toBeDisabled();
    expect(username).toBeDisabled();
    expect(password).toBeDisabled();
    const [request] = api.requests;
    expect(request?.url).toBe('/api/auth/login');
    expect(request?.body).toEqual({ username: 'admin', password: 'Sunny-Harbor-2291' });

    answer(jsonResponse(signedIn));

    expect(await screen.findByTestId('current-path')).toHaveTextContent('/overview');
    await waitFor(() => expect(useAuthStore.getState().user?.username).toBe('admin'));
    expect(useAuthStore.getState().accessToken).toBe('token');
  });
});
