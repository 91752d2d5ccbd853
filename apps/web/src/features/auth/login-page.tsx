import type { LoginRequest } from '@lumi/contract';
import { lazy, Suspense, useState } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import { useLocation, useNavigate } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { errorMessage } from '@/lib/api-client';
import { isChallenge, useLogin } from './api/login';
import { signInTarget } from './sign-in-target';

const FALLBACK_ERROR = 'Invalid username or password';

const loadResolver = () => import('./login-resolver');

// Only users with two-factor sign-in need the second step: it stays out of the sign-in page's first download.
const TwoFactorStep = lazy(() => import('./two-factor-step').then((m) => ({ default: m.TwoFactorStep })));

/**
 * Zod and the schemas arrive on first use (focus or submit) instead of with the page: the sign-in page's
 * first download stays within its performance budget.
 */
const lazyResolver: Resolver<LoginRequest> = async (values, context, options) => {
  const { loginResolver } = await loadResolver();
  return loginResolver(values, context, options);
};

/** The sign-in screen (spec section 2, Login; messages of section 8). */
export function LoginPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const signIn = useLogin();
  const [challenge, setChallenge] = useState<string | null>(null);
  /** Why the second step ended and the password is asked again (an expired challenge). */
  const [restartReason, setRestartReason] = useState('');
  const {
    register,
    handleSubmit,
    setFocus,
    setValue,
    formState: { errors },
  } = useForm<LoginRequest>({
    resolver: lazyResolver,
    defaultValues: { username: '', password: '' },
  });

  const goOn = () => void navigate(signInTarget(location.state), { replace: true });
  const onSubmit = handleSubmit((credentials) => {
    setRestartReason('');
    signIn.mutate(credentials, {
      onSuccess: (response) => (isChallenge(response) ? setChallenge(response.challenge) : goOn()),
      // The disabled submit button dropped focus; put the keyboard user back where a retry starts.
      onError: () => setTimeout(() => setFocus('password', { shouldSelect: true })),
    });
  });
  const restart = (reason: string) => {
    signIn.reset();
    setChallenge(null);
    setRestartReason(reason);
    setValue('password', '');
    setTimeout(() => setFocus('password'));
  };
  const submitting = signIn.isPending;

  return (
    <main className="flex min-h-dvh items-center justify-center px-4 py-10">
      <div className="w-full max-w-sm rounded-xl border bg-card p-6 shadow-sm sm:p-8">
        <div className="mb-6 text-center">
          <h1 className="text-2xl font-bold tracking-tight">Lumi Admin</h1>
          <p className="mt-1 text-sm text-muted-foreground">Sign in to access the admin dashboard</p>
        </div>
        {challenge ? (
          <Suspense fallback={<p className="text-sm text-muted-foreground">Loading...</p>}>
            <TwoFactorStep challenge={challenge} onSignedIn={goOn} onRestart={restart} />
          </Suspense>
        ) : (
          <>
            {signIn.isError && (
              <Alert variant="error" title="Authentication failed" className="mb-4">
                {errorMessage(signIn.error, FALLBACK_ERROR)}
              </Alert>
            )}
            {restartReason && (
              <Alert variant="error" title="Sign in again" className="mb-4">
                {restartReason}
              </Alert>
            )}
            <form noValidate onSubmit={onSubmit} onFocus={() => void loadResolver()} className="space-y-4">
              <Field label="Username" error={errors.username?.message}>
                <Input
                  autoComplete="username"
                  autoCapitalize="none"
                  spellCheck={false}
                  disabled={submitting}
                  {...register('username')}
                />
              </Field>
              <Field label="Password" error={errors.password?.message}>
                <Input
                  type="password"
                  autoComplete="current-password"
                  disabled={submitting}
                  {...register('password')}
                />
              </Field>
              <Button type="submit" className="w-full" disabled={submitting}>
                {submitting ? 'Signing in...' : 'Sign in'}
              </Button>
            </form>
          </>
        )}
      </div>
    </main>
  );
}
