import type { User } from '@lumi/contract';
import { ConfirmDialog } from '@/components/ui/dialog';
import { errorMessage } from '@/lib/api-client';
import { useDeleteUser } from '../api/delete-user';

interface DeleteUserDialogProps {
  user: User;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** Delete User confirmation (spec: Users); a failure stays in the dialog. */
export function DeleteUserDialog({ user, open, onOpenChange }: DeleteUserDialogProps) {
  const deleteUser = useDeleteUser();
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Delete User"
      description={`Are you sure you want to delete ${user.name}? This action cannot be undone.`}
      confirmLabel="Delete"
      pendingLabel="Deleting..."
      pending={deleteUser.isPending}
      error={deleteUser.error ? errorMessage(deleteUser.error, 'Failed to delete user') : null}
      onConfirm={() => deleteUser.mutate(user.id, { onSuccess: () => onOpenChange(false) })}
    />
  );
}
