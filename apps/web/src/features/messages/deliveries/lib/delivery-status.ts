import type { Delivery, DeliveryAttemptOutcome, DeliveryStatus } from '@lumi/contract';

export const STATUS_LABELS: Record<DeliveryStatus, string> = {
  queued: 'Queued',
  sending: 'Sending',
  sent: 'Sent',
  failed: 'Failed',
  cancelled: 'Cancelled',
  unknown: 'Unknown',
  refused: 'Refused',
};

export const OUTCOME_LABELS: Record<DeliveryAttemptOutcome, string> = {
  sending: 'Sending',
  sent: 'Sent',
  retry: 'Will retry',
  rate_limited: 'Rate limited',
  failed: 'Failed',
  unknown: 'Unknown',
};

/** A delivery that will not change again unless an operator retries it. */
export function isSettled({ status }: { status: DeliveryStatus }): boolean {
  return status !== 'queued' && status !== 'sending';
}

/**
 * An operator cancels a queued delivery and retries a failed or unknown one
 * (docs/bot-developers/deliveries.md, "Sending messages (deliveries)").
 */
export function canCancel({ status }: { status: DeliveryStatus }): boolean {
  return status === 'queued';
}

export function canRetry({ status }: { status: DeliveryStatus }): boolean {
  return status === 'failed' || status === 'unknown';
}

/** A delivery's forum topic by name, with its thread for those who look it up in Telegram. */
export function topicLabel({ topic_name, message_thread_id }: Delivery): string {
  return topic_name ? `${topic_name} (thread ${message_thread_id})` : `Topic thread ${message_thread_id}`;
}
