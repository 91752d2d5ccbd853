import { updateUserSchema, type Role, type User } from '@lumi/contract';
import { Dialog } from '@/components/ui/dialog';
import { DialogForm } from '@/components/ui/dialog-form';
import { Field } from '@/components/ui/field';
import { FormCheckbox } from '@/components/ui/form-checkbox';
import { Input } from '@/components/ui/input';
import { useFormDialog } from '@/lib/use-form-dialog';
import { useUpdateUser } from '../api/update-user';
import { RoleCheckboxes } from './role-checkboxes';
import { UserContactFields } from './user-contact-fields';

interface EditUserDialogProps {
  user: User;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  roles: Role[];
}

/**
 * Edit User (spec: Users): the username is read-only and the password is not part of it. The Active
 * checkbox, which lets administrators deactivate accounts, goes beyond spec section 4 (there the state is
 * only displayed).
 */
export function EditUserDialog({ user, open, onOpenChange, roles }: EditUserDialogProps) {
  const close = () => onOpenChange(false);
  const updateUser = useUpdateUser();
  const dialog = useFormDialog(updateUserSchema, {
    defaultValues: {
      email: user.email,
      name: user.name,
      roles: user.roles.map((role) => role.id),
      is_active: user.is_active,
    },
    save: (input) => updateUser.mutateAsync({ id: user.id, input }),
    onSaved: close,
    successMessage: `User '${user.username}' saved`,
    serverFields: ['email', 'name', 'roles', 'is_active'],
    failureMessage: 'Failed to update user',
  });
  const { control } = dialog.form;

  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Edit User">
      <DialogForm dialog={dialog} onCancel={close} submitLabel="Update User">
        <Field label="Username">
          <Input value={user.username} readOnly />
        </Field>
        <UserContactFields />
        <RoleCheckboxes roles={roles} />
        <FormCheckbox
          control={control}
          name="is_active"
          label="Active"
          description="Inactive users cannot sign in"
        />
      </DialogForm>
    </Dialog>
  );
}
