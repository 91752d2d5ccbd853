import type { Role } from '@lumi/contract';
import { Plus } from 'lucide-react';
import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
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
          <Button variant="secondary" onClick={() => setDialog({ kind: 'create' })}>
            <Plus aria-hidden />
            Add Role
          </Button>
        </div>
      </CardHeader>
      <CardContent>
        {roles.isPending && (
          <div role="status" aria-label="Loading roles" className="space-y-2">
            {Array.from({ length: 3 }, (_, index) => (
              <Skeleton key={index} className="h-12 w-full" />
            ))}
          </div>
        )}
        {roles.isError && (
          <Alert variant="error">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <span>Failed to load roles</span>
              <Button variant="secondary" size="sm" onClick={() => void roles.refetch()}>
                Retry
              </Button>
            </div>
          </Alert>
        )}
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
