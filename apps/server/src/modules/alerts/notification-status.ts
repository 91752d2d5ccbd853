import type { AlertNotification, AlertNotificationStatus, DeliveryStatus } from '@lumi/contract';

/** What a notification's Telegram delivery has come to, as the deliveries service answers it. */
export interface DeliveryState {
  status: DeliveryStatus;
  error: string | null;
  sent_at: string | null;
}

/**
 * A Telegram notification is as far as its delivery got (docs/bot-developers/alerts.md, "Contact
 * points"): sent, failed (also when cancelled, refused or unknown), or still queued. A webhook's, or one
 * whose delivery is gone, is as stored.
 */
export function asDeliveryGot(
  notification: AlertNotification,
  delivery: DeliveryState | undefined,
): AlertNotification {
  if (notification.delivery_id === null || delivery === undefined) return notification;
  const failed = ['failed', 'cancelled', 'unknown', 'refused'].includes(delivery.status);
  const status: AlertNotificationStatus = delivery.status === 'sent' ? 'sent' : failed ? 'failed' : 'queued';
  return {
    ...notification,
    status,
    error: failed ? (delivery.error ?? `The delivery is ${delivery.status}`) : notification.error,
    sent_at: delivery.sent_at ?? notification.sent_at,
  };
}
