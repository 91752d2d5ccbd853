import type { AlertNotification, ContactPoint } from '@lumi/contract';
import { Send } from 'lucide-react';
import { useNavigate } from 'react-router';
import { toast } from '@/lib/toast';
import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/api-client';
import { useTestContactPoint } from '../api/contact-points';

/** The delivery log's entry of a Telegram notification. */
export function deliveryLink(deliveryId: number): string {
  return `/messages?view=deliveries&delivery=${deliveryId}`;
}

/** "Send test notification": says at once whether it was sent, queued (with its delivery) or failed. */
export function TestButton({ point }: { point: ContactPoint }) {
  const test = useTestContactPoint();
  const navigate = useNavigate();
  const report = (notification: AlertNotification) => {
    if (notification.status === 'failed') {
      toast.error(`Test notification to '${point.name}' failed`, {
        description:
          notification.error ??
          (notification.response_status ? `HTTP ${notification.response_status}` : undefined),
      });
    } else if (notification.status === 'queued') {
      const deliveryId = notification.delivery_id;
      toast.success(`Test notification to '${point.name}' queued`, {
        action:
          deliveryId !== null
            ? { label: 'View delivery', onClick: () => void navigate(deliveryLink(deliveryId)) }
            : undefined,
      });
    } else {
      toast.success(`Test notification sent to '${point.name}'`);
    }
  };
  return (
    <Button
      variant="ghost"
      size="sm"
      disabled={test.isPending}
      onClick={() =>
        test.mutate(point.id, {
          onSuccess: report,
          onError: (error) => toast.error(errorMessage(error, 'Failed to send the test notification')),
        })
      }
      aria-label={`Send test notification to ${point.name}`}
    >
      <Send aria-hidden />
      {test.isPending ? 'Sending...' : 'Test'}
    </Button>
  );
}
