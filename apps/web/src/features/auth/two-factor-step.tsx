import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { ApiError, errorMessage } from '@/lib/api-client';
import {
  secondFactorBody,
  secondFactorInputProps,
  secondFactorSchema,
  type SecondFactorMode,
} from '@/lib/second-factor';
import { useVerifySecondFactor } from './api/login';

interface TwoFactorStepProps {
  challenge: string;
  /** The sign-in is complete: the session is stored. */
  onSignedIn: () => void;
  /** The challenge ended (expired or used): back to the password, with the server's reason. */
  onRestart: (reason: string) => void;
}

const LABELS: Record<SecondFactorMode, string> = {
  code: 'Authentication code',
  recovery_code: 'Recovery code',
};

/**
 * The sign-in's second step (docs/operators/security.md, "Two-factor sign-in"): a 6-digit code from the
 * authenticator app, or one of the recovery codes. A wrong code keeps the challenge (the server allows
 * another try until it expires); an expired one sends the user back to the password.
 */
export function TwoFactorStep({ challenge, onSignedIn, onRestart }: TwoFactorStepProps) {
  const [mode, setMode] = useState<SecondFactorMode>('code');
  const verify = useVerifySecondFactor();
  const resolver = useMemo(() => zodResolver(secondFactorSchema(mode)), [mode]);
  const {
    register,
    handleSubmit,
    setFocus,
    reset,
    formState: { errors },
  } = useForm<{ factor: string }>({ resolver, defaultValues: { factor: '' } });

  useEffect(() => setFocus('factor'), [mode, setFocus]);

  const onSubmit = handleSubmit(({ factor }) =>
    verify.mutate(
      { challenge, ...secondFactorBody(mode, factor) },
      {
        onSuccess: onSignedIn,
        onError: (error) => {
          if (error instanceof ApiError && error.code === 'challenge_expired') {
            onRestart(error.detail);
            return;
          }
          setTimeout(() => setFocus('factor', { shouldSelect: true }));
        },
      },
    ),
  );

  const switchMode = () => {
    verify.reset();
    reset({ factor: '' });
    setMode(mode === 'code' ? 'recovery_code' : 'code');
  };
  const submitting = verify.isPending;

  return (
    <form noValidate onSubmit={onSubmit} className="space-y-4" aria-labelledby="two-factor-title">
      <div>
        <h2 id="two-factor-title" className="text-lg font-semibold">
          Two-factor authentication
        </h2>
        <p className="mt-1 text-sm text-muted-foreground">
          {mode === 'code'
            ? 'Enter the 6-digit code from your authenticator app.'
            : 'Enter one of the recovery codes you saved. Each code works once.'}
        </p>
      </div>
      {verify.isError && (
        <Alert variant="error" title="Verification failed">
          {errorMessage(verify.error, 'The code could not be checked. Try again.')}
        </Alert>
      )}
      <Field label={LABELS[mode]} error={errors.factor?.message}>
        <Input key={mode} disabled={submitting} {...secondFactorInputProps(mode)} {...register('factor')} />
      </Field>
      <Button type="submit" className="w-full" disabled={submitting}>
        {submitting ? 'Verifying...' : 'Verify'}
      </Button>
      <div className="flex flex-wrap justify-between gap-2">
        <Button variant="ghost" size="sm" onClick={switchMode} disabled={submitting}>
          {mode === 'code' ? 'Use a recovery code instead' : 'Use the authenticator app instead'}
        </Button>
        <Button variant="ghost" size="sm" onClick={() => onRestart('')} disabled={submitting}>
          Back to sign in
        </Button>
      </div>
    </form>
  );
}
