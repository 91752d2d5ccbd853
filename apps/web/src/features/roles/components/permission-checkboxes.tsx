import {
  ALL_PERMISSIONS,
  PERMISSION_LABELS,
  PERMISSIONS,
  type PermissionGrant,
  type RoleInput,
} from '@lumi/contract';
import { useController } from 'react-hook-form';
import { Checkbox } from '@/components/ui/checkbox';
import { CheckboxGroup } from '@/components/ui/checkbox-group';

/** The role form's permissions, from the catalogue; '*' grants everything, so it locks the others on. */
export function PermissionCheckboxes() {
  const { field, fieldState } = useController<Pick<RoleInput, 'permissions'>, 'permissions'>({
    name: 'permissions',
  });
  const value = field.value;
  const all = value.includes(ALL_PERMISSIONS);

  function toggle(permission: PermissionGrant, checked: boolean) {
    field.onChange(checked ? [...value, permission] : value.filter((p) => p !== permission));
  }

  return (
    <CheckboxGroup legend="Permissions" error={fieldState.error?.message}>
      <Checkbox
        checked={all}
        onCheckedChange={(checked) => toggle(ALL_PERMISSIONS, checked)}
        label="All permissions (*)"
        description="Every permission, including ones added later"
      />
      <div className="grid gap-2 border-t pt-2 sm:grid-cols-2">
        {PERMISSIONS.map((permission) => (
          <Checkbox
            key={permission}
            checked={all || value.includes(permission)}
            disabled={all}
            onCheckedChange={(checked) => toggle(permission, checked)}
            label={PERMISSION_LABELS[permission]}
            description={<code>{permission}</code>}
          />
        ))}
      </div>
    </CheckboxGroup>
  );
}
