import { Ban, RotateCw } from 'lucide-react';
import { useState } from 'react';
import { toast } from '@/lib/toast';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { ConfirmDialog, Dialog, DialogFooter } from '@/components/ui/dialog';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/api-client';
import { useHasPermission } from '@/lib/permissions';
import { useCancelDelivery } from '../api/cancel-delivery';
import { useDelivery } from '../api/get-delivery';
import { useRetryDelivery } from '../api/retry-delivery';
import { canCancel, canRetry } from '../lib/delivery-status';
import { DeliveryDetails } from './delivery-details';

type Action = 'cancel' | 'retry';

const ACTIONS = {
  cancel: {
    title: 'Cancel delivery',
    description: 'It will not be sent. A cancelled delivery cannot be queued again.',
    confirm: 'Cancel delivery',
    keep: 'Keep delivery',
    pending: 'Cancelling...',
    done: 'Delivery cancelled',
    failure: 'Failed to cancel the delivery',
  },
  retry: {
    title: 'Retry delivery',
    description:
      'It is queued again and sent as a new attempt. If an earlier attempt did reach Telegram, the chat gets the message twice.',
    confirm: 'Send again',
    keep: "Don't send",
    pending: 'Retrying...',
    done: 'Delivery queued again',
    failure: 'Failed to retry the delivery',
  },
} as const;

interface DeliveryDialogProps {
  id: number;
  onClose: () => void;
}

/**
 * One delivery's details, followed live while it is on its way. Those who may send (templates:send) cancel
 * a queued delivery or retry a failed or unknown one, after a confirmation; a 409 (it moved on meanwhile)
 * shows the server's reason in the confirmation.
 */
export function DeliveryDialog({ id, onClose }: DeliveryDialogProps) {
  const canSend = useHasPermission('templates:send');
  const delivery = useDelivery(id);
  const cancel = useCancelDelivery();
  const retry = useRetryDelivery();
  const [confirming, setConfirming] = useState<Action | null>(null);
  const mutation = confirming === 'retry' ? retry : cancel;
  const words = confirming ? ACTIONS[confirming] : null;

  const closeConfirm = (open: boolean) => {
    if (open) return;
    setConfirming(null);
    cancel.reset();
    retry.reset();
  };

  const confirm = () => {
    if (!confirming) return;
    const done = ACTIONS[confirming].done;
    mutation.mutate(id, {
      onSuccess: () => {
        toast.success(done);
        closeConfirm(false);
      },
    });
  };

  const data = delivery.data;
  const actions = data && canSend && (canCancel(data) || canRetry(data));

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={`Delivery ${id}`}
      description={
        data ? `${data.template_name} v${data.template_version} to ${data.channel_name}` : undefined
      }
      className="sm:max-w-2xl"
    >
      {delivery.isPending && (
        <div role="status" aria-label="Loading delivery" className="space-y-3">
          <Skeleton className="h-6 w-24" />
          <Skeleton className="h-24 w-full" />
          <Skeleton className="h-32 w-full" />
        </div>
      )}
      {delivery.isError && !data && (
        <Alert variant="error" title="Failed to load the delivery">
          {errorMessage(delivery.error, 'Check your connection.')}
        </Alert>
      )}
      {data && <DeliveryDetails delivery={data} />}
      <DialogFooter className="mt-5">
        <Button variant="secondary" onClick={onClose}>
          Close
        </Button>
        {actions && canCancel(data) && (
          <Button variant="secondary" onClick={() => setConfirming('cancel')}>
            <Ban aria-hidden />
            Cancel delivery
          </Button>
        )}
        {actions && canRetry(data) && (
          <Button onClick={() => setConfirming('retry')}>
            <RotateCw aria-hidden />
            Retry
          </Button>
        )}
      </DialogFooter>
      <ConfirmDialog
        open={words !== null}
        onOpenChange={closeConfirm}
        title={words?.title ?? ''}
        description={words?.description ?? ''}
        confirmLabel={words?.confirm ?? ''}
        cancelLabel={words?.keep ?? ''}
        pendingLabel={words?.pending ?? ''}
        pending={mutation.isPending}
        onConfirm={confirm}
        error={mutation.isError ? errorMessage(mutation.error, words?.failure ?? '') : null}
      />
    </Dialog>
  );
}
