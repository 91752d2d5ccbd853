import type { DeliveryDetail, DeliverySource } from '@lumi/contract';
import type { ReactNode } from 'react';
import { Alert } from '@/components/ui/alert';
import { formatDateTime } from '@/lib/format';
import { TelegramMessage } from '../../rendering/components/telegram-message';
import { DeliveryAttempts } from './delivery-attempts';
import { topicLabel } from '../lib/delivery-status';
import { DeliveryStatusBadge } from './delivery-status-badge';

const SOURCES: Record<DeliverySource, string> = {
  user: 'User',
  api_key: 'API key',
  schedule: 'Schedule',
  alert: 'Alert rule',
};

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="space-y-2">
      <h3 className="text-sm font-semibold">{title}</h3>
      {children}
    </section>
  );
}

function Facts({ items }: { items: ReadonlyArray<[string, ReactNode] | false> }) {
  return (
    <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-2">
      {items.map(
        (item) =>
          item && (
            <div key={item[0]} className="flex min-w-0 justify-between gap-3 sm:block">
              <dt className="text-xs text-muted-foreground">{item[0]}</dt>
              <dd className="min-w-0 text-right break-words sm:text-left">{item[1]}</dd>
            </div>
          ),
      )}
    </dl>
  );
}

/** One delivery in full: state, the message as Telegram shows it, its options, data and every attempt. */
export function DeliveryDetails({ delivery }: { delivery: DeliveryDetail }) {
  const requester = delivery.requested_by
    ? `${SOURCES[delivery.source]} ${delivery.requested_by}`
    : SOURCES[delivery.source];
  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-center gap-2">
        <DeliveryStatusBadge status={delivery.status} />
        <span className="text-sm text-muted-foreground">
          {delivery.attempts} {delivery.attempts === 1 ? 'attempt' : 'attempts'}
        </span>
      </div>
      {delivery.error && (
        <Alert
          variant={delivery.status === 'sent' ? 'info' : 'error'}
          title={delivery.status === 'sent' ? 'Sent, but not pinned' : undefined}
        >
          {delivery.error}
        </Alert>
      )}
      <Facts
        items={[
          ['Created', formatDateTime(delivery.created_at)],
          ['Send at', formatDateTime(delivery.send_at)],
          ['Sent', formatDateTime(delivery.sent_at, 'Not yet')],
          delivery.next_attempt_at !== null && ['Next attempt', formatDateTime(delivery.next_attempt_at)],
          ['Requested by', requester],
          ['Chat', <code key="chat">{delivery.chat_id}</code>],
          delivery.message_thread_id !== null && ['Topic', topicLabel(delivery)],
          delivery.telegram_message_id !== null && ['Telegram message ID', delivery.telegram_message_id],
          delivery.idempotency_key !== null && [
            'Idempotency key',
            <code key="key">{delivery.idempotency_key}</code>,
          ],
        ]}
      />
      <Section title="Message">
        <figure aria-label="Rendered message">
          <div className="rounded-2xl rounded-bl-sm border bg-background p-3 shadow-sm">
            <TelegramMessage text={delivery.text} parseMode={delivery.parse_mode} />
          </div>
        </figure>
      </Section>
      <Section title="Send options">
        <Facts
          items={[
            ['Parse mode', delivery.parse_mode],
            ['Link preview', delivery.disable_web_preview ? 'Off' : 'On'],
            ['Notification', delivery.disable_notification ? 'Silent' : 'With sound'],
            ['Pin', delivery.pin ? (delivery.pinned ? 'Yes, pinned' : 'Yes') : 'No'],
            delivery.parts !== null && [
              'Sent as',
              `${delivery.parts} messages (${delivery.parts_sent ?? 0} sent so far)`,
            ],
          ]}
        />
      </Section>
      <Section title="Data">
        <pre
          tabIndex={0}
          aria-label="Data the message was rendered with"
          className="max-h-48 overflow-auto rounded-md border bg-muted p-2 font-mono text-xs"
        >
          {JSON.stringify(delivery.data, null, 2)}
        </pre>
      </Section>
      <Section title="Attempts">
        <DeliveryAttempts attempts={delivery.attempt_log} parts={delivery.parts} />
      </Section>
    </div>
  );
}
