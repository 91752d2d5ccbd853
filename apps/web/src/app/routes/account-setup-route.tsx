import { useQueryClient } from '@tanstack/react-query';
import { Navigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { useSignOut } from '@/features/auth/api/logout';
import { HOME_PATH } from '@/features/auth/sign-in-target';
import { RequiredPasswordChange } from '@/features/profile/components/required-password-change';
import { TwoFactorEnrolment } from '@/features/two-factor/components/two-factor-enrolment';
import { useAuthStore } from '@/lib/auth-store';
import { reloadSessionUser } from '@/lib/session-user';

const TITLES = {
  password_change: 'Choose a new password',
  two_factor_setup: 'Set up two-factor authentication',
} as const;

/**
 * What a user must do before anything else (docs/operators/console-guide.md, "Signing in"): change an admin's
 * temporary password, or set up the two-factor sign-in a role requires. The guards keep every other screen
 * away until it is done; when it is, the user's new state is read back and they go on (possibly to the next
 * pending action).
 */
export function AccountSetupRoute() {
  const queryClient = useQueryClient();
  const pending = useAuthStore((state) => state.user?.pending_action ?? null);
  const { mutate: signOut, isPending: signingOut } = useSignOut();
  if (!pending) return <Navigate to={HOME_PATH} replace />;

  const goOn = async () => {
    await reloadSessionUser();
    await queryClient.invalidateQueries();
  };

  return (
    <main className="flex min-h-dvh items-start justify-center px-4 py-10 sm:items-center">
      <div className="w-full max-w-lg rounded-xl border bg-card p-6 shadow-sm sm:p-8">
        <div className="mb-6">
          <p className="text-sm font-medium text-muted-foreground">Lumi Admin</p>
          <h1 className="mt-1 text-2xl font-bold tracking-tight">{TITLES[pending]}</h1>
          {pending === 'two_factor_setup' && (
            <p className="mt-2 text-sm text-muted-foreground">
              Your role requires two-factor sign-in. Set it up to continue to the console.
            </p>
          )}
        </div>
        {pending === 'password_change' ? (
          <RequiredPasswordChange onChanged={goOn} />
        ) : (
          <TwoFactorEnrolment onDone={() => void goOn()} />
        )}
        <div className="mt-6 border-t pt-4">
          <Button variant="ghost" size="sm" onClick={() => signOut()} disabled={signingOut}>
            Sign out
          </Button>
        </div>
      </div>
    </main>
  );
}
