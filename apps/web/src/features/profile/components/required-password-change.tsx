import { changePasswordSchema } from '@lumi/contract';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { useFormDialog } from '@/lib/use-form-dialog';
import { changePassword } from '../api/change-password';

/**
 * The password change an admin's temporary password requires before anything else
 * (docs/operators/security.md, "Temporary passwords"). This session stays signed in (the server ends the
 * others); `onChanged` goes on once the server accepted it.
 */
export function RequiredPasswordChange({ onChanged }: { onChanged: () => Promise<unknown> }) {
  const dialog = useFormDialog(changePasswordSchema, {
    defaultValues: { current_password: '', new_password: '', confirm_password: '' },
    save: async (input) => {
      await changePassword(input);
      await onChanged();
    },
    serverFields: ['current_password', 'new_password', 'confirm_password'],
    failureMessage: 'Failed to change the password',
  });
  const { register } = dialog.form;
  const { errors } = dialog.form.formState;
  return (
    <form noValidate onSubmit={(event) => void dialog.onSubmit(event)} className="space-y-4">
      <p className="text-sm text-muted-foreground">
        An administrator set a temporary password for your account. Choose a new password to continue.
      </p>
      {dialog.failure && <Alert variant="error">{dialog.failure}</Alert>}
      <Field label="Temporary password" error={errors.current_password?.message}>
        <Input type="password" autoComplete="current-password" {...register('current_password')} />
      </Field>
      <Field
        label="New password"
        error={errors.new_password?.message}
        hint="Use a strong password with at least 8 characters"
      >
        <Input type="password" autoComplete="new-password" {...register('new_password')} />
      </Field>
      <Field label="Confirm new password" error={errors.confirm_password?.message}>
        <Input type="password" autoComplete="new-password" {...register('confirm_password')} />
      </Field>
      <Button type="submit" className="w-full" disabled={dialog.pending}>
        {dialog.pending ? 'Changing...' : 'Change password'}
      </Button>
    </form>
  );
}
