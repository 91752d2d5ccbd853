import { zodResolver } from '@hookform/resolvers/zod';
import { createUserFormSchema, type CreateUserFormValues, type Role } from '@lumi/contract';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { errorMessage } from '@/lib/api-client';
import { useCreateUser } from '../api/create-user';
import { applyFieldErrors } from '@/lib/form-errors';
import { RoleCheckboxes } from './role-checkboxes';

const SERVER_FIELDS = ['username', 'email', 'name', 'password', 'roles'] as const;

interface CreateUserDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  roles: Role[];
}

/** Create New User (spec: Users; messages of section 5 come from the shared contract schema). */
export function CreateUserDialog({ open, onOpenChange, roles }: CreateUserDialogProps) {
  const createUser = useCreateUser();
  const [failure, setFailure] = useState<string | null>(null);
  const {
    control,
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<CreateUserFormValues, unknown, z.output<typeof createUserFormSchema>>({
    resolver: zodResolver(createUserFormSchema),
    defaultValues: { username: '', email: '', name: '', password: '', confirmPassword: '', roles: [] },
  });

  const onSubmit = handleSubmit(async ({ username, email, name, password, roles: roleIds }) => {
    setFailure(null);
    try {
      await createUser.mutateAsync({ username, email, name, password, roles: roleIds });
      onOpenChange(false);
    } catch (error) {
      if (!applyFieldErrors(error, SERVER_FIELDS, setError)) {
        setFailure(errorMessage(error, 'Failed to create user'));
      }
    }
  });

  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Create New User">
      <form noValidate onSubmit={onSubmit} className="space-y-4">
        {failure && <Alert variant="error">{failure}</Alert>}
        <Field label="Username" error={errors.username?.message}>
          <Input autoComplete="off" {...register('username')} />
        </Field>
        <Field label="Email" error={errors.email?.message}>
          <Input type="email" autoComplete="off" {...register('email')} />
        </Field>
        <Field label="Full Name" error={errors.name?.message}>
          <Input autoComplete="off" {...register('name')} />
        </Field>
        <Field label="Password" error={errors.password?.message}>
          <Input type="password" autoComplete="new-password" {...register('password')} />
        </Field>
        <Field label="Confirm Password" error={errors.confirmPassword?.message}>
          <Input type="password" autoComplete="new-password" {...register('confirmPassword')} />
        </Field>
        <Controller
          control={control}
          name="roles"
          render={({ field, fieldState }) => (
            <RoleCheckboxes
              roles={roles}
              value={field.value}
              onChange={field.onChange}
              error={fieldState.error?.message}
            />
          )}
        />
        <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" disabled={createUser.isPending}>
            {createUser.isPending ? 'Creating...' : 'Create User'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
