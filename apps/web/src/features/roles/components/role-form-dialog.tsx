import {
  ALL_PERMISSIONS,
  permissionGrantSchema,
  roleInputSchema,
  type PermissionGrant,
  type Role,
  type RoleInput,
} from '@lumi/contract';
import { Dialog } from '@/components/ui/dialog';
import { DialogForm } from '@/components/ui/dialog-form';
import { Field } from '@/components/ui/field';
import { FormCheckbox } from '@/components/ui/form-checkbox';
import { Input, Textarea } from '@/components/ui/input';
import { useFormDialog } from '@/lib/use-form-dialog';
import { useCreateRole } from '../api/create-role';
import { useUpdateRole } from '../api/update-role';
import { PermissionCheckboxes } from './permission-checkboxes';

function isPermissionGrant(value: string): value is PermissionGrant {
  return permissionGrantSchema.safeParse(value).success;
}

/** The role's own values to edit, or an empty role to create. */
function roleFormValues(role?: Role): RoleInput {
  return {
    name: role?.name ?? '',
    description: role?.description ?? '',
    permissions: role?.permissions.filter(isPermissionGrant) ?? [],
    require_two_factor: role?.require_two_factor ?? false,
  };
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

/**
 * Create or edit a custom role: a name, a description, permissions from the catalogue, and whether its
 * users must sign in with two factors. Of a built-in role only that last switch can change
 * (docs/operators/security.md, "Two-factor sign-in").
 */
export function RoleFormDialog({ role, open, onOpenChange }: RoleFormDialogProps) {
  const close = () => onOpenChange(false);
  const createRole = useCreateRole();
  const updateRole = useUpdateRole();
  const dialog = useFormDialog(roleInputSchema, {
    defaultValues: roleFormValues(role),
    save: (values) => {
      const input = withoutRedundantGrants(values);
      return role ? updateRole.mutateAsync({ id: role.id, input }) : createRole.mutateAsync(input);
    },
    onSaved: close,
    failureMessage: role ? 'Failed to update role' : 'Failed to create role',
    successMessage: ({ name }) => `Role '${name}' ${role ? 'saved' : 'created'}`,
  });
  const { register, control } = dialog.form;
  const builtIn = role?.built_in === true;
  const requireTwoFactor = (
    <FormCheckbox
      control={control}
      name="require_two_factor"
      label="Require two-factor"
      description="Users with this role must set up two-factor sign-in before they can use the console"
    />
  );
  const { errors } = dialog.form.formState;

  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={role ? 'Edit Role' : 'Create Role'}>
      <DialogForm dialog={dialog} onCancel={close} submitLabel={role ? 'Update Role' : 'Create Role'}>
        {/* The one thing a built-in role lets change comes first, above its long locked list. */}
        {builtIn && (
          <>
            <p className="text-sm text-muted-foreground">
              A built-in role keeps its name and permissions; only whether it requires two-factor sign-in can
              change.
            </p>
            {requireTwoFactor}
          </>
        )}
        <fieldset disabled={builtIn} className="min-w-0 space-y-4">
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
          <PermissionCheckboxes />
        </fieldset>
        {!builtIn && requireTwoFactor}
      </DialogForm>
    </Dialog>
  );
}
