import { createUserFormSchema, type Role } from '@lumi/contract';
import { Dialog } from '@/components/ui/dialog';
import { DialogForm } from '@/components/ui/dialog-form';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { useFormDialog } from '@/lib/use-form-dialog';
import { useCreateUser } from '../api/create-user';
import { RoleCheckboxes } from './role-checkboxes';
import { UserContactFields } from './user-contact-fields';

interface CreateUserDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  roles: Role[];
}

/** Create New User (spec: Users; messages of section 5 come from the shared contract schema). */
export function CreateUserDialog({ open, onOpenChange, roles }: CreateUserDialogProps) {
  const close = () => onOpenChange(false);
  const createUser = useCreateUser();
  const dialog = useFormDialog(createUserFormSchema, {
    defaultValues: { username: '', email: '', name: '', password: '', confirmPassword: '', roles: [] },
    save: ({ confirmPassword: _confirmed, ...input }) => createUser.mutateAsync(input),
    onSaved: close,
    successMessage: ({ username }) => `User '${username}' created`,
    serverFields: ['username', 'email', 'name', 'password', 'roles'],
    failureMessage: 'Failed to create user',
  });
  const { errors } = dialog.form.formState;
  const { register } = dialog.form;

  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Create New User">
      <DialogForm dialog={dialog} onCancel={close} submitLabel="Create User">
        <Field label="Username" error={errors.username?.message}>
          <Input autoComplete="off" {...register('username')} />
        </Field>
        <UserContactFields />
        <Field label="Password" error={errors.password?.message}>
          <Input type="password" autoComplete="new-password" {...register('password')} />
        </Field>
        <Field label="Confirm Password" error={errors.confirmPassword?.message}>
          <Input type="password" autoComplete="new-password" {...register('confirmPassword')} />
        </Field>
        <RoleCheckboxes roles={roles} />
      </DialogForm>
    </Dialog>
  );
}
