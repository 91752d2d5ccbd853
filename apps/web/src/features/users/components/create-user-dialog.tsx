import { createUserFormSchema, type Role } from '@lumi/contract';
import { FormProvider } from 'react-hook-form';
import { Alert } from '@/components/ui/alert';
import { Dialog } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { FormActions } from '@/components/ui/form-actions';
import { Input } from '@/components/ui/input';
import { useFormDialog } from '@/lib/use-form-dialog';
import { useCreateUser } from '../api/create-user';
import { UserContactFields, UserRolesField } from './user-details-fields';

interface CreateUserDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  roles: Role[];
}

/** Create New User (spec: Users; messages of section 5 come from the shared contract schema). */
export function CreateUserDialog({ open, onOpenChange, roles }: CreateUserDialogProps) {
  const createUser = useCreateUser();
  const { form, onSubmit, failure, pending } = useFormDialog({
    schema: createUserFormSchema,
    defaultValues: { username: '', email: '', name: '', password: '', confirmPassword: '', roles: [] },
    save: ({ username, email, name, password, roles: roleIds }) =>
      createUser.mutateAsync({ username, email, name, password, roles: roleIds }),
    onSaved: () => onOpenChange(false),
    serverFields: ['username', 'email', 'name', 'password', 'roles'],
    failureMessage: 'Failed to create user',
  });
  const {
    register,
    formState: { errors },
  } = form;

  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Create New User">
      <FormProvider {...form}>
        <form noValidate onSubmit={onSubmit} className="space-y-4">
          {failure && <Alert variant="error">{failure}</Alert>}
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
          <UserRolesField roles={roles} />
          <FormActions
            onCancel={() => onOpenChange(false)}
            pending={pending}
            submitLabel="Create User"
            pendingLabel="Creating..."
          />
        </form>
      </FormProvider>
    </Dialog>
  );
}
