import { act, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { signInTarget } from '@/features/auth/sign-in-target';
import { useAuthStore } from '@/lib/auth-store';
import { GuestOnly, RequireAuth } from './auth-guards';
import { adminUser as user } from '@/test/session-users';

function LoginProbe() {
  const location = useLocation();
  return <p>Sign in, then go to {signInTarget(location.state)}</p>;
}

function renderAt(path: string) {
  const router = createMemoryRouter(
    [
      {
        path: '/login',
        element: (
          <GuestOnly>
            <LoginProbe />
          </GuestOnly>
        ),
      },
      { path: '/overview', element: <p>Overview screen</p> },
      {
        path: '/account-setup',
        element: (
          <RequireAuth>
            <p>Account setup screen</p>
          </RequireAuth>
        ),
      },
      {
        path: '/users',
        element: (
          <RequireAuth>
            <p>Users screen</p>
          </RequireAuth>
        ),
      },
    ],
    { initialEntries: [path] },
  );
  render(<RouterProvider router={router} />);
}

describe('route guards', () => {
  afterEach(() => useAuthStore.getState().clear());

  it.each(['password_change', 'two_factor_setup'] as const)(
    'sends a user whose pending action is %s to the account setup, and keeps them there',
    async (pendingAction) => {
      useAuthStore.setState({
        isLoading: false,
        isAuthenticated: true,
        accessToken: 'token',
        user: { ...user, pending_action: pendingAction },
      });
      renderAt('/users');
      expect(await screen.findByText('Account setup screen')).toBeInTheDocument();
      expect(screen.queryByText('Users screen')).not.toBeInTheDocument();
    },
  );

  it("shows a remembered user's screen while the session is being restored", () => {
    useAuthStore.setState({ isLoading: true, isAuthenticated: true, user });
    renderAt('/users');
    expect(screen.getByText('Users screen')).toBeInTheDocument();
  });

  it('sends a remembered user whose session could not be restored to /login, remembering the screen', async () => {
    useAuthStore.setState({ isLoading: true, isAuthenticated: true, user });
    renderAt('/users');
    act(() => useAuthStore.getState().clear());
    expect(await screen.findByText('Sign in, then go to /users')).toBeInTheDocument();
  });

  it('sends a visitor without a session to /login and remembers where they were going', async () => {
    renderAt('/users');
    expect(await screen.findByText('Sign in, then go to /users')).toBeInTheDocument();
  });

  it('sends a signed-in visitor from /login to the overview', async () => {
    useAuthStore.getState().setSession('token', user);
    renderAt('/login');
    expect(await screen.findByText('Overview screen')).toBeInTheDocument();
  });

  it('after signing out, the next sign-in starts at the overview', async () => {
    useAuthStore.getState().setSession('token', user);
    renderAt('/users');
    expect(screen.getByText('Users screen')).toBeInTheDocument();

    act(() => useAuthStore.getState().clear());

    expect(await screen.findByText('Sign in, then go to /overview')).toBeInTheDocument();
  });
});
