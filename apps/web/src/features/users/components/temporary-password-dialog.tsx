import { MESSAGES, passwordResetRequestSchema, type User } from '@lumi/contract';
import { z } from 'zod';
import { Dialog } from '@/components/ui/dialog';
import { DialogForm } from '@/components/ui/dialog-form';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { useFormDialog } from '@/lib/use-form-dialog';
import { useSetTemporaryPassword } from '../api/user-security';

/** The contract's temporary password, typed twice so a typo does not lock the user out. */
const temporaryPasswordSchema = passwordResetRequestSchema
  .extend({ confirm_password: z.string() })
  .refine((v) => v.temporary_password === v.confirm_password, {
    path: ['confirm_password'],
    error: MESSAGES.passwordsMismatch,
  });

interface TemporaryPasswordDialogProps {
  user: User;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/**
 * Set a temporary password (docs/operators/security.md, "Temporary passwords"): the user's sessions end and
 * they must choose their own at the next sign-in. Tell them the password another way.
 */
export function TemporaryPasswordDialog({ user, open, onOpenChange }: TemporaryPasswordDialogProps) {
  const close = () => onOpenChange(false);
  const setPassword = useSetTemporaryPassword();
  const dialog = useFormDialog(temporaryPasswordSchema, {
    defaultValues: { temporary_password: '', confirm_password: '' },
    save: ({ temporary_password }) => setPassword.mutateAsync({ id: user.id, input: { temporary_password } }),
    onSaved: close,
    successMessage: `Temporary password set for '${user.username}'`,
    serverFields: ['temporary_password'],
    failureMessage: 'Failed to set the temporary password',
  });
  const { register } = dialog.form;
  const { errors } = dialog.form.formState;
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Set temporary password"
      description={`${user.name} is signed out everywhere and must choose a new password at the next sign-in.`}
    >
      <DialogForm dialog={dialog} onCancel={close} submitLabel="Save Password">
        <Field
          label="Temporary password"
          error={errors.temporary_password?.message}
          hint="At least 8 characters; give it to the user another way"
        >
          <Input type="password" autoComplete="new-password" {...register('temporary_password')} />
        </Field>
        <Field label="Confirm temporary password" error={errors.confirm_password?.message}>
          <Input type="password" autoComplete="new-password" {...register('confirm_password')} />
        </Field>
      </DialogForm>
    </Dialog>
  );
}
