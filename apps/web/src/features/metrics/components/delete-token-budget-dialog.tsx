import { ConfirmDialog } from '@/components/ui/dialog';
import { errorMessage } from '@/lib/api-client';
import { useDeleteTokenBudget } from '../api/delete-token-budget';

/** Asks before deleting a provider's budget; a failure stays in the dialog. */
export function DeleteTokenBudgetDialog({
  provider,
  onOpenChange,
}: {
  provider: string;
  onOpenChange: (open: boolean) => void;
}) {
  const remove = useDeleteTokenBudget();
  return (
    <ConfirmDialog
      open
      onOpenChange={onOpenChange}
      title="Delete Budget"
      description={`Delete the token budget for ${provider}? The bot will no longer be limited for this provider.`}
      confirmLabel="Delete"
      pendingLabel="Deleting..."
      pending={remove.isPending}
      error={remove.error ? errorMessage(remove.error, 'Failed to delete budget') : null}
      onConfirm={() => remove.mutate(provider, { onSuccess: () => onOpenChange(false) })}
    />
  );
}
