import { ALL_PERMISSIONS, type Role } from '@lumi/contract';
import { Lock, ShieldCheck } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { DeleteButton, EditButton } from '@/components/ui/row-actions';
import { ActionsTh, Table, Td, Th } from '@/components/ui/table';

interface RolesTableProps {
  roles: Role[];
  onEdit: (role: Role) => void;
  onDelete: (role: Role) => void;
}

/** Below this breakpoint the Permissions and Users columns fold into the Role cell. */
const WIDE_ONLY = 'hidden md:table-cell';

function permissionSummary(permissions: string[]): string {
  if (permissions.includes(ALL_PERMISSIONS)) return 'All permissions';
  return `${permissions.length} permission${permissions.length === 1 ? '' : 's'}`;
}

function Permissions({ role }: { role: Role }) {
  return (
    <>
      <p className="mb-1 text-xs text-muted-foreground">{permissionSummary(role.permissions)}</p>
      <div className="flex flex-wrap gap-1">
        {role.permissions.map((permission) => (
          <Badge key={permission} className="font-mono">
            {permission}
          </Badge>
        ))}
      </div>
    </>
  );
}

export function RolesTable({ roles, onEdit, onDelete }: RolesTableProps) {
  return (
    <Table>
      <caption className="sr-only">Roles</caption>
      <thead>
        <tr>
          <Th>Role</Th>
          <Th className={WIDE_ONLY}>Permissions</Th>
          <Th className={`${WIDE_ONLY} text-right`}>Users</Th>
          <ActionsTh />
        </tr>
      </thead>
      <tbody>
        {roles.length === 0 && (
          <tr>
            <Td colSpan={4} className="py-8 text-center text-muted-foreground">
              No roles found
            </Td>
          </tr>
        )}
        {roles.map((role) => (
          <tr key={role.id} className="align-top hover:bg-muted/40">
            <Td className="align-top">
              <div className="flex flex-wrap items-center gap-2 font-medium">
                {role.name}
                {role.built_in && (
                  <Badge>
                    <Lock aria-hidden className="size-3 text-warning" />
                    Built-in
                  </Badge>
                )}
                {role.require_two_factor && (
                  <Badge variant="success">
                    <ShieldCheck aria-hidden className="size-3" />
                    Requires two-factor
                  </Badge>
                )}
              </div>
              {role.description && <p className="mt-0.5 text-muted-foreground">{role.description}</p>}
              {role.built_in && (
                <p className="mt-1 text-xs text-muted-foreground">
                  The built-in {role.name} role cannot be deleted; only whether it requires two-factor sign-in
                  can change.
                </p>
              )}
              <div className="mt-2 md:hidden">
                <Permissions role={role} />
                <p className="mt-1 text-xs text-muted-foreground">
                  Users: <span className="tabular-nums">{role.user_count}</span>
                </p>
              </div>
            </Td>
            <Td className={`${WIDE_ONLY} align-top`}>
              <Permissions role={role} />
            </Td>
            <Td className={`${WIDE_ONLY} text-right align-top tabular-nums`}>{role.user_count}</Td>
            <Td className="text-right align-top whitespace-nowrap">
              <EditButton label={`Edit role ${role.name}`} onClick={() => onEdit(role)} />
              <DeleteButton
                label={`Delete role ${role.name}`}
                disabled={role.built_in}
                onClick={() => onDelete(role)}
              />
            </Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
