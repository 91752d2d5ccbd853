import type { Role } from '@lumi/contract';
import { useState } from 'react';
import { AddButton } from '@/components/ui/add-button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { RetryAlert } from '@/components/ui/load-error';
import { SkeletonList } from '@/components/ui/skeleton';
import { useHasPermission } from '@/lib/permissions';
import { useRoles } from '../api/list-roles';
import { DeleteRoleDialog } from './delete-role-dialog';
import { RoleFormDialog } from './role-form-dialog';
import { RolesTable } from './roles-table';

type OpenDialog = { kind: 'create' } | { kind: 'edit'; role: Role } | { kind: 'delete'; role: Role } | null;

/**
 * Roles and their permissions, for users:write (spec section 6; docs/operators/security.md,
 * "Permissions and the audit log").
 */
export function RolesSection() {
  const canRead = useHasPermission('users:read');
  const canWrite = useHasPermission('users:write');
  const roles = useRoles(canRead && canWrite);
  const [dialog, setDialog] = useState<OpenDialog>(null);

  if (!canRead || !canWrite) return null;

  const closeDialog = (open: boolean) => {
    if (!open) setDialog(null);
  };

  return (
    <Card aria-labelledby="roles-heading" className="mt-10">
      <CardHeader>
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div>
            <CardTitle id="roles-heading">Roles</CardTitle>
            <p className="mt-1 text-sm text-muted-foreground">
              A role is a named set of permissions; every user has one or more.
            </p>
          </div>
          <AddButton variant="secondary" onClick={() => setDialog({ kind: 'create' })}>
            Add Role
          </AddButton>
        </div>
      </CardHeader>
      <CardContent>
        {roles.isPending && <SkeletonList label="Loading roles" rows={3} rowClassName="h-12" />}
        {roles.isError && <RetryAlert onRetry={() => void roles.refetch()}>Failed to load roles</RetryAlert>}
        {roles.isSuccess && (
          <RolesTable
            roles={roles.data}
            onEdit={(role) => setDialog({ kind: 'edit', role })}
            onDelete={(role) => setDialog({ kind: 'delete', role })}
          />
        )}
      </CardContent>

      {dialog?.kind === 'create' && <RoleFormDialog open onOpenChange={closeDialog} />}
      {dialog?.kind === 'edit' && <RoleFormDialog open onOpenChange={closeDialog} role={dialog.role} />}
      {dialog?.kind === 'delete' && <DeleteRoleDialog open onOpenChange={closeDialog} role={dialog.role} />}
    </Card>
  );
}
