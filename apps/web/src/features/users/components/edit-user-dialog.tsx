import { updateUserSchema, type Role, type User } from '@lumi/contract';
import { FormProvider } from 'react-hook-form';
import { Alert } from '@/components/ui/alert';
import { Dialog } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { FormActions } from '@/components/ui/form-actions';
import { FormCheckbox } from '@/components/ui/form-checkbox';
import { Input } from '@/components/ui/input';
import { useFormDialog } from '@/lib/use-form-dialog';
import { useUpdateUser } from '../api/update-user';
import { UserContactFields, UserRolesField } from './user-details-fields';

interface EditUserDialogProps {
  user: User;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  roles: Role[];
}

/**
 * Edit User (spec: Users): the username is read-only and the password is not part of it. The Active
 * checkbox comes from the foundation issue, which lets administrators deactivate accounts.
 */
export function EditUserDialog({ user, open, onOpenChange, roles }: EditUserDialogProps) {
  const updateUser = useUpdateUser();
  const { form, onSubmit, failure, pending } = useFormDialog({
    schema: updateUserSchema,
    defaultValues: {
      email: user.email,
      name: user.name,
      roles: user.roles.map((role) => role.id),
      is_active: user.is_active,
    },
    save: (input) => updateUser.mutateAsync({ id: user.id, input }),
    onSaved: () => onOpenChange(false),
    serverFields: ['email', 'name', 'roles', 'is_active'],
    failureMessage: 'Failed to update user',
  });

  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Edit User">
      <FormProvider {...form}>
        <form noValidate onSubmit={onSubmit} className="space-y-4">
          {failure && <Alert variant="error">{failure}</Alert>}
          <Field label="Username">
            <Input value={user.username} readOnly />
          </Field>
          <UserContactFields />
          <UserRolesField roles={roles} />
          <FormCheckbox
            control={form.control}
            name="is_active"
            label="Active"
            description="Inactive users cannot sign in"
          />
          <FormActions
            onCancel={() => onOpenChange(false)}
            pending={pending}
            submitLabel="Update User"
            pendingLabel="Updating..."
          />
        </form>
      </FormProvider>
    </Dialog>
  );
}
