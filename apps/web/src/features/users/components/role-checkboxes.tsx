import type { Role, UpdateUserInput } from '@lumi/contract';
import { useController } from 'react-hook-form';
import { Checkbox } from '@/components/ui/checkbox';
import { CheckboxGroup } from '@/components/ui/checkbox-group';

/** The field the checkboxes edit, which the Create New User and Edit User forms both have. */
type RoleIdsForm = Pick<UpdateUserInput, 'roles'>;

/** One checkbox per role from the server (spec: Create New User and Edit User dialogs). */
export function RoleCheckboxes({ roles }: { roles: Role[] }) {
  const { field, fieldState } = useController<RoleIdsForm, 'roles'>({ name: 'roles' });
  const value = field.value;

  function toggle(roleId: number, checked: boolean) {
    field.onChange(checked ? [...value, roleId] : value.filter((id) => id !== roleId));
  }

  return (
    <CheckboxGroup legend="Roles" error={fieldState.error?.message}>
      {roles.length === 0 ? (
        <p className="text-sm text-muted-foreground">No roles available</p>
      ) : (
        <div className="grid gap-2 sm:grid-cols-2">
          {roles.map((role) => (
            <Checkbox
              key={role.id}
              checked={value.includes(role.id)}
              onCheckedChange={(checked) => toggle(role.id, checked)}
              label={role.name}
              description={role.description || undefined}
            />
          ))}
        </div>
      )}
    </CheckboxGroup>
  );
}
