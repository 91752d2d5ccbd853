import { zodResolver } from '@hookform/resolvers/zod';
import {
  ALL_PERMISSIONS,
  permissionGrantSchema,
  roleInputSchema,
  type PermissionGrant,
  type Role,
  type RoleInput,
} from '@lumi/contract';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { Input, Textarea } from '@/components/ui/input';
import { errorMessage } from '@/lib/api-client';
import { useCreateRole } from '../api/create-role';
import { useUpdateRole } from '../api/update-role';
import { PermissionCheckboxes } from './permission-checkboxes';

function isPermissionGrant(value: string): value is PermissionGrant {
  return permissionGrantSchema.safeParse(value).success;
}

interface RoleFormDialogProps {
  /** The role to edit; none to create a new one. */
  role?: Role;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** Create or edit a custom role: a name, a description and permissions from the catalogue. */
export function RoleFormDialog({ role, open, onOpenChange }: RoleFormDialogProps) {
  const createRole = useCreateRole();
  const updateRole = useUpdateRole();
  const mutation = role ? updateRole : createRole;
  const [failure, setFailure] = useState<string | null>(null);
  const {
    control,
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<z.input<typeof roleInputSchema>, unknown, RoleInput>({
    resolver: zodResolver(roleInputSchema),
    defaultValues: {
      name: role?.name ?? '',
      description: role?.description ?? '',
      permissions: role?.permissions.filter(isPermissionGrant) ?? [],
    },
  });

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    // '*' already grants everything; sending the rest too would only blur what the role means.
    const input: RoleInput = values.permissions.includes(ALL_PERMISSIONS)
      ? { ...values, permissions: [ALL_PERMISSIONS] }
      : values;
    try {
      if (role) await updateRole.mutateAsync({ id: role.id, input });
      else await createRole.mutateAsync(input);
      onOpenChange(false);
    } catch (error) {
      setFailure(errorMessage(error, role ? 'Failed to update role' : 'Failed to create role'));
    }
  });

  const idleLabel = role ? 'Update Role' : 'Create Role';
  const busyLabel = role ? 'Updating...' : 'Creating...';

  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={role ? 'Edit Role' : 'Create Role'}>
      <form noValidate onSubmit={onSubmit} className="space-y-4">
        {failure && <Alert variant="error">{failure}</Alert>}
        <Field
          label="Name"
          error={errors.name?.message}
          hint="Lowercase letters, digits, dashes and underscores"
        >
          <Input autoComplete="off" {...register('name')} />
        </Field>
        <Field label="Description" error={errors.description?.message}>
          <Textarea rows={2} {...register('description')} />
        </Field>
        <Controller
          control={control}
          name="permissions"
          render={({ field, fieldState }) => (
            <PermissionCheckboxes
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
          <Button type="submit" disabled={mutation.isPending}>
            {mutation.isPending ? busyLabel : idleLabel}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
