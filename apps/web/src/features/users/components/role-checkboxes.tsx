import type { Role } from '@lumi/contract';
import { Checkbox } from '@/components/ui/checkbox';
import { CheckboxGroup } from '@/components/ui/checkbox-group';

interface RoleCheckboxesProps {
  roles: Role[];
  value: number[];
  onChange: (roleIds: number[]) => void;
  error?: string;
}

/** One checkbox per role from the server (spec: Create New User and Edit User dialogs). */
export function RoleCheckboxes({ roles, value, onChange, error }: RoleCheckboxesProps) {
  function toggle(roleId: number, checked: boolean) {
    onChange(checked ? [...value, roleId] : value.filter((id) => id !== roleId));
  }

  return (
    <CheckboxGroup legend="Roles" error={error}>
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
