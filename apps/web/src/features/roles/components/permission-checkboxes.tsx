import { ALL_PERMISSIONS, PERMISSION_LABELS, PERMISSIONS, type PermissionGrant } from '@lumi/contract';
import { Checkbox } from '@/components/ui/checkbox';
import { CheckboxGroup } from '@/components/ui/checkbox-group';

interface PermissionCheckboxesProps {
  value: PermissionGrant[];
  onChange: (permissions: PermissionGrant[]) => void;
  error?: string;
}

/** The permission catalogue as checkboxes; '*' grants everything, so it locks the others on. */
export function PermissionCheckboxes({ value, onChange, error }: PermissionCheckboxesProps) {
  const all = value.includes(ALL_PERMISSIONS);

  function toggle(permission: PermissionGrant, checked: boolean) {
    onChange(checked ? [...value, permission] : value.filter((p) => p !== permission));
  }

  return (
    <CheckboxGroup legend="Permissions" error={error}>
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
