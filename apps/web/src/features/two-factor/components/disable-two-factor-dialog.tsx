import { z } from 'zod';
import { MESSAGES } from '@lumi/contract';
import { useMemo, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogFooter } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { useFormDialog } from '@/lib/use-form-dialog';
import {
  secondFactorBody,
  secondFactorField,
  secondFactorInputProps,
  type SecondFactorMode,
} from '@/lib/second-factor';
import { useDisableTwoFactor } from '../api/two-factor';

interface DisableTwoFactorDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

function disableSchema(mode: SecondFactorMode) {
  return z.object({
    password: z.string().min(1, MESSAGES.passwordRequired),
    factor: secondFactorField(mode),
  });
}

/**
 * Turning two-factor sign-in off (docs/operators/security.md, "Two-factor sign-in"): the password and a code
 * (or a recovery code), in a dialog that says what it means first. The password's and the code's refusals
 * show under their fields.
 */
export function DisableTwoFactorDialog({ open, onOpenChange }: DisableTwoFactorDialogProps) {
  const [mode, setMode] = useState<SecondFactorMode>('code');
  const schema = useMemo(() => disableSchema(mode), [mode]);
  const disable = useDisableTwoFactor();
  const close = () => onOpenChange(false);
  const dialog = useFormDialog(schema, {
    defaultValues: { password: '', factor: '' },
    save: ({ password, factor }) => disable.mutateAsync({ password, ...secondFactorBody(mode, factor) }),
    onSaved: close,
    successMessage: 'Two-factor sign-in turned off',
    serverFields: { password: 'password', code: 'factor', recovery_code: 'factor' },
    failureMessage: 'Failed to turn off two-factor sign-in',
  });
  const { register, resetField } = dialog.form;
  const { errors } = dialog.form.formState;
  const switchMode = () => {
    resetField('factor');
    setMode(mode === 'code' ? 'recovery_code' : 'code');
  };

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Turn off two-factor authentication?"
      description="Signing in will need only your password. Your recovery codes stop working."
    >
      <form noValidate onSubmit={(event) => void dialog.onSubmit(event)} className="space-y-4">
        {dialog.failure && <Alert variant="error">{dialog.failure}</Alert>}
        <Field label="Password" error={errors.password?.message}>
          <Input type="password" autoComplete="current-password" {...register('password')} />
        </Field>
        <Field
          label={mode === 'code' ? 'Authentication code' : 'Recovery code'}
          error={errors.factor?.message}
        >
          <Input key={mode} {...secondFactorInputProps(mode)} {...register('factor')} />
        </Field>
        <Button variant="ghost" size="sm" onClick={switchMode}>
          {mode === 'code' ? 'Use a recovery code instead' : 'Use the authenticator app instead'}
        </Button>
        <DialogFooter>
          <Button variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button type="submit" variant="destructive" disabled={dialog.pending}>
            {dialog.pending ? 'Turning off...' : 'Turn off'}
          </Button>
        </DialogFooter>
      </form>
    </Dialog>
  );
}
