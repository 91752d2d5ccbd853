import { ConfirmDialog } from '@/components/ui/dialog';
import { errorMessage } from '@/lib/api-client';
import { useRemoveModelPrice } from '../api/remove-model-price';

/** Asks before removing an operator's price; a failure stays in the dialog. */
export function RemoveModelPriceDialog({
  model,
  onOpenChange,
}: {
  model: string;
  onOpenChange: (open: boolean) => void;
}) {
  const remove = useRemoveModelPrice();
  return (
    <ConfirmDialog
      open
      onOpenChange={onOpenChange}
      title="Remove Price"
      description={`Remove your price for ${model}? Calls reported from now on are priced by the built-in catalogue, or count as unpriced if it does not know the model.`}
      confirmLabel="Remove Price"
      cancelLabel="Keep Price"
      pendingLabel="Removing..."
      pending={remove.isPending}
      error={remove.error ? errorMessage(remove.error, 'Failed to remove price') : null}
      onConfirm={() => remove.mutate(model, { onSuccess: () => onOpenChange(false) })}
    />
  );
}
