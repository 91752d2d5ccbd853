import { zodResolver } from '@hookform/resolvers/zod';
import { updateUserSchema, type Role, type User } from '@lumi/contract';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Dialog } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { errorMessage } from '@/lib/api-client';
import { applyFieldErrors } from '@/lib/form-errors';
import { useUpdateUser } from '../api/update-user';
import { RoleCheckboxes } from './role-checkboxes';

const SERVER_FIELDS = ['email', 'name', 'roles', 'is_active'] as const;

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
  const [failure, setFailure] = useState<string | null>(null);
  const {
    control,
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<z.input<typeof updateUserSchema>, unknown, z.output<typeof updateUserSchema>>({
    resolver: zodResolver(updateUserSchema),
    defaultValues: {
      email: user.email,
      name: user.name,
      roles: user.roles.map((role) => role.id),
      is_active: user.is_active,
    },
  });

  const onSubmit = handleSubmit(async (input) => {
    setFailure(null);
    try {
      await updateUser.mutateAsync({ id: user.id, input });
      onOpenChange(false);
    } catch (error) {
      if (!applyFieldErrors(error, SERVER_FIELDS, setError)) {
        setFailure(errorMessage(error, 'Failed to update user'));
      }
    }
  });

  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Edit User">
      <form noValidate onSubmit={onSubmit} className="space-y-4">
        {failure && <Alert variant="error">{failure}</Alert>}
        <Field label="Username">
          <Input value={user.username} readOnly />
        </Field>
        <Field label="Email" error={errors.email?.message}>
          <Input type="email" autoComplete="off" {...register('email')} />
        </Field>
        <Field label="Full Name" error={errors.name?.message}>
          <Input autoComplete="off" {...register('name')} />
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
        <Controller
          control={control}
          name="is_active"
          render={({ field }) => (
            <Checkbox
              checked={field.value ?? true}
              onCheckedChange={field.onChange}
              label="Active"
              description="Inactive users cannot sign in"
            />
          )}
        />
        <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" disabled={updateUser.isPending}>
            {updateUser.isPending ? 'Updating...' : 'Update User'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
