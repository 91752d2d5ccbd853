import type { Role } from '@lumi/contract';
import { useId } from 'react';
import { Checkbox } from '@/components/ui/checkbox';

interface RoleCheckboxesProps {
  roles: Role[];
  value: number[];
  onChange: (roleIds: number[]) => void;
  error?: string;
}

/** One checkbox per role from the server (spec: Create New User and Edit User dialogs). */
export function RoleCheckboxes({ roles, value, onChange, error }: RoleCheckboxesProps) {
  const errorId = useId();

  function toggle(roleId: number, checked: boolean) {
    onChange(checked ? [...value, roleId] : value.filter((id) => id !== roleId));
  }

  return (
    <fieldset aria-describedby={error ? errorId : undefined} className="space-y-2">
      <legend className="mb-1.5 text-sm font-medium">Roles</legend>
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
      {error && (
        <p id={errorId} className="text-xs font-medium text-destructive">
          {error}
        </p>
      )}
    </fieldset>
  );
}
