import type { Role } from '@lumi/contract';
import { ConfirmDialog } from '@/components/ui/dialog';
import { errorMessage } from '@/lib/api-client';
import { useDeleteRole } from '../api/delete-role';

interface DeleteRoleDialogProps {
  role: Role;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** Confirmation before deleting a role; the server's reason (still assigned, built in) shows here. */
export function DeleteRoleDialog({ role, open, onOpenChange }: DeleteRoleDialogProps) {
  const deleteRole = useDeleteRole();
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Delete Role"
      description={`Are you sure you want to delete the role ${role.name}? This action cannot be undone.`}
      confirmLabel="Delete"
      pendingLabel="Deleting..."
      pending={deleteRole.isPending}
      error={deleteRole.error ? errorMessage(deleteRole.error, 'Failed to delete role') : null}
      onConfirm={() => deleteRole.mutate(role.id, { onSuccess: () => onOpenChange(false) })}
    />
  );
}
