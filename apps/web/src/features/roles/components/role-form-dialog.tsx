import {
  ALL_PERMISSIONS,
  permissionGrantSchema,
  roleInputSchema,
  type PermissionGrant,
  type Role,
  type RoleInput,
} from '@lumi/contract';
import { Controller } from 'react-hook-form';
import { Alert } from '@/components/ui/alert';
import { Dialog } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { FormActions } from '@/components/ui/form-actions';
import { Input, Textarea } from '@/components/ui/input';
import { useFormDialog } from '@/lib/use-form-dialog';
import { useCreateRole } from '../api/create-role';
import { useUpdateRole } from '../api/update-role';
import { PermissionCheckboxes } from './permission-checkboxes';

function isPermissionGrant(value: string): value is PermissionGrant {
  return permissionGrantSchema.safeParse(value).success;
}

// '*' already grants everything; sending the rest too would only blur what the role means.
function withoutRedundantGrants(input: RoleInput): RoleInput {
  return input.permissions.includes(ALL_PERMISSIONS) ? { ...input, permissions: [ALL_PERMISSIONS] } : input;
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
  const { form, onSubmit, failure, pending } = useFormDialog({
    schema: roleInputSchema,
    defaultValues: {
      name: role?.name ?? '',
      description: role?.description ?? '',
      permissions: role?.permissions.filter(isPermissionGrant) ?? [],
    },
    save: (values) => {
      const input = withoutRedundantGrants(values);
      return role ? updateRole.mutateAsync({ id: role.id, input }) : createRole.mutateAsync(input);
    },
    onSaved: () => onOpenChange(false),
    failureMessage: role ? 'Failed to update role' : 'Failed to create role',
  });
  const {
    control,
    register,
    formState: { errors },
  } = form;

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
        <FormActions
          onCancel={() => onOpenChange(false)}
          pending={pending}
          submitLabel={role ? 'Update Role' : 'Create Role'}
          pendingLabel={role ? 'Updating...' : 'Creating...'}
        />
      </form>
    </Dialog>
  );
}
