import type { LoginRequest } from '@lumi/contract';
import { useForm, type Resolver } from 'react-hook-form';
import { useLocation, useNavigate } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { errorMessage } from '@/lib/api-client';
import { useLogin } from './api/login';
import { signInTarget } from './sign-in-target';

const FALLBACK_ERROR = 'Invalid username or password';

const loadResolver = () => import('./login-resolver');

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
  const {
    register,
    handleSubmit,
    setFocus,
    formState: { errors },
  } = useForm<LoginRequest>({
    resolver: lazyResolver,
    defaultValues: { username: '', password: '' },
  });

  const onSubmit = handleSubmit((credentials) =>
    signIn.mutate(credentials, {
      onSuccess: () => void navigate(signInTarget(location.state), { replace: true }),
      // The disabled submit button dropped focus; put the keyboard user back where a retry starts.
      onError: () => setTimeout(() => setFocus('password', { shouldSelect: true })),
    }),
  );
  const submitting = signIn.isPending;

  return (
    <main className="flex min-h-dvh items-center justify-center px-4 py-10">
      <div className="w-full max-w-sm rounded-xl border bg-card p-6 shadow-sm sm:p-8">
        <div className="mb-6 text-center">
          <h1 className="text-2xl font-bold tracking-tight">Lumi Admin</h1>
          <p className="mt-1 text-sm text-muted-foreground">Sign in to access the admin dashboard</p>
        </div>
        {signIn.isError && (
          <Alert variant="error" title="Authentication failed" className="mb-4">
            {errorMessage(signIn.error, FALLBACK_ERROR)}
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
      </div>
    </main>
  );
}
