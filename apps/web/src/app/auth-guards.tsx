import { useState, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { signInTarget, type SignInState } from '@/features/auth/sign-in-target';
import { useAuthStore } from '@/lib/auth-store';
import { FullPageLoading } from './page-fallback';

/** Where a user with a pending action (a temporary password, a required two-factor setup) must go first. */
export const ACCOUNT_SETUP_PATH = '/account-setup';

/**
 * Spec section 2, protected routes: a visitor who is not signed in goes to /login and the origin is
 * remembered so sign-in can return there. A session that ends here (sign out, password change) goes to
 * /login plainly: the next sign-in starts at the overview. A remembered user's screen renders at once while
 * the session is restored (its calls wait for it, lib/api-client.ts), so the page does not wait for a round
 * trip before it shows anything; a refused restore signs out and lands on /login as above.
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const location = useLocation();
  const isLoading = useAuthStore((state) => state.isLoading);
  const isAuthenticated = useAuthStore((state) => state.isAuthenticated);
  const pendingAction = useAuthStore((state) => state.user?.pending_action ?? null);
  const signedIn = isAuthenticated && !isLoading;
  const [hadSession, setHadSession] = useState(signedIn);
  if (signedIn && !hadSession) setHadSession(true);

  if (isLoading && !isAuthenticated) return <FullPageLoading />;
  if (!isAuthenticated) {
    const state: SignInState | undefined = hadSession ? undefined : { from: location };
    return <Navigate to="/login" replace state={state} />;
  }
  // Until the pending action is done the server refuses everything else, so nothing else is shown
  // (docs/operators/security.md, "Temporary passwords" and "Two-factor sign-in").
  if (pendingAction && location.pathname !== ACCOUNT_SETUP_PATH)
    return <Navigate to={ACCOUNT_SETUP_PATH} replace />;
  return children;
}

/** /login for someone already signed in goes on to the overview (or the remembered origin). */
export function GuestOnly({ children }: { children: ReactNode }) {
  const location = useLocation();
  const isLoading = useAuthStore((state) => state.isLoading);
  const isAuthenticated = useAuthStore((state) => state.isAuthenticated);
  if (isLoading) return <FullPageLoading />;
  if (isAuthenticated) return <Navigate to={signInTarget(location.state)} replace />;
  return children;
}
