import { zodResolver } from '@hookform/resolvers/zod';
import { twoFactorEnableRequestSchema, type TwoFactorEnableRequest } from '@lumi/contract';
import { useForm } from 'react-hook-form';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { CopyButton } from '@/components/ui/copy-button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { ApiError, errorMessage } from '@/lib/api-client';
import { applyFieldErrors } from '@/lib/form-errors';
import { secondFactorInputProps } from '@/lib/second-factor';
import { useEnableTwoFactor, useSetupTwoFactor } from '../api/two-factor';
import { QrCode } from './qr-code';
import { RecoveryCodes } from './recovery-codes';

interface TwoFactorEnrolmentProps {
  /** The recovery codes were acknowledged: two-factor sign-in is on. */
  onDone: () => void;
  /** Leaves the setup unfinished; none where the user must set it up (the enforced screen). */
  onCancel?: () => void;
}

/** Groups a base32 secret in fours, as authenticator apps show it; spaces are ignored when it is typed. */
function groupSecret(secret: string) {
  return secret.replace(/(.{4})(?=.)/g, '$1 ');
}

/**
 * Setting up two-factor sign-in (docs/operators/security.md, "Two-factor sign-in"): start, scan the QR code
 * or type the secret, confirm with a code, then the recovery codes once. The setup starts on a click, never
 * on its own, so a page that renders twice never replaces the secret the user is scanning.
 */
export function TwoFactorEnrolment({ onDone, onCancel }: TwoFactorEnrolmentProps) {
  const setup = useSetupTwoFactor();
  const enable = useEnableTwoFactor();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<TwoFactorEnableRequest, unknown, { code: string }>({
    resolver: zodResolver(twoFactorEnableRequestSchema),
    defaultValues: { code: '' },
  });

  if (enable.data) return <RecoveryCodes codes={enable.data.recovery_codes} onDone={onDone} />;

  if (!setup.data) {
    return (
      <div className="space-y-3">
        <p className="text-sm text-muted-foreground">
          You will need an authenticator app on your phone, such as Google Authenticator, Microsoft
          Authenticator, 1Password or Aegis.
        </p>
        {setup.isError && (
          <Alert variant="error" title="The setup could not start">
            {errorMessage(setup.error, 'Check your connection and try again.')}
          </Alert>
        )}
        <div className="flex flex-wrap gap-2">
          <Button onClick={() => setup.mutate()} disabled={setup.isPending}>
            {setup.isPending ? 'Starting...' : 'Set up two-factor authentication'}
          </Button>
          {onCancel && (
            <Button variant="secondary" onClick={onCancel}>
              Cancel
            </Button>
          )}
        </div>
      </div>
    );
  }

  const { secret, otpauth_url: otpauthUrl } = setup.data;
  const onSubmit = handleSubmit(({ code }) =>
    enable.mutate(code, { onError: (error) => applyFieldErrors(error, ['code'], setError) }),
  );
  // A wrong code (422 on `code`) shows under the field; anything else (no pending setup, 409) up here.
  const onField = enable.error instanceof ApiError && enable.error.status === 422;
  const failure =
    enable.isError && !onField ? errorMessage(enable.error, 'Failed to turn on two-factor sign-in') : null;

  return (
    <div className="space-y-4">
      <ol className="list-decimal space-y-4 pl-5 text-sm">
        <li className="space-y-3">
          <p>Scan this QR code with your authenticator app.</p>
          <QrCode value={otpauthUrl} label="QR code to add Lumi Admin to your authenticator app" />
        </li>
        <li className="space-y-2">
          <p>Or type this secret into the app (time-based, 6 digits, 30 seconds):</p>
          <div className="flex flex-wrap items-center gap-2">
            <code
              data-testid="two-factor-secret"
              className="rounded-md border bg-muted/40 px-2 py-1 font-mono break-all"
            >
              {groupSecret(secret)}
            </code>
            <CopyButton text={secret} label="Copy secret" />
          </div>
        </li>
        <li>
          <form noValidate onSubmit={(event) => void onSubmit(event)} className="space-y-3">
            <p>Enter the 6-digit code the app shows to finish.</p>
            {failure && <Alert variant="error">{failure}</Alert>}
            <Field label="Authentication code" error={errors.code?.message} className="max-w-56">
              <Input {...secondFactorInputProps('code')} {...register('code')} />
            </Field>
            <div className="flex flex-wrap gap-2">
              <Button type="submit" disabled={enable.isPending}>
                {enable.isPending ? 'Verifying...' : 'Turn on'}
              </Button>
              {onCancel && (
                <Button variant="secondary" onClick={onCancel} disabled={enable.isPending}>
                  Cancel
                </Button>
              )}
            </div>
          </form>
        </li>
      </ol>
    </div>
  );
}
