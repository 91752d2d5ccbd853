import type { ConfigItem } from '@lumi/contract';
import { ConfirmDialog } from '@/components/ui/dialog';
import { errorMessage } from '@/lib/api-client';
import { useDeleteConfigItem } from '../api/delete-config-item';

interface DeleteConfigItemDialogProps {
  item: ConfigItem;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Spec section 8: a failure closes the dialog and is shown as a dismissable error on the list. */
  onFailure: (message: string) => void;
}

/** Spec section 5: delete asks first. The version loaded is sent, so a newer change is not deleted unseen. */
export function DeleteConfigItemDialog({ item, open, onOpenChange, onFailure }: DeleteConfigItemDialogProps) {
  const deleteItem = useDeleteConfigItem();
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title={`Delete ${item.name}`}
      description="Are you sure you want to delete this item?"
      confirmLabel="Delete"
      pendingLabel="Deleting..."
      pending={deleteItem.isPending}
      onConfirm={() =>
        deleteItem.mutate(
          { domain: item.domain, id: item.id, version: item.version },
          {
            onSuccess: () => onOpenChange(false),
            onError: (error) => onFailure(errorMessage(error, 'Failed to delete configuration')),
          },
        )
      }
    />
  );
}
