import type { Delivery } from '@lumi/contract';
import { PanelRightOpen } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { ResponsiveTable, type ResponsiveColumn } from '@/components/ui/responsive-table';
import { formatDateTime } from '@/lib/format';
import { topicLabel } from '../lib/delivery-status';
import { DeliveryStatusBadge } from './delivery-status-badge';

function Secondary({ children }: { children: string }) {
  return <span className="block text-xs text-muted-foreground">{children}</span>;
}

/** When it was asked for, then when it went out (or is due, for one queued for later). */
function DeliveryTime({ delivery }: { delivery: Delivery }) {
  const due = delivery.status === 'queued' && Date.parse(delivery.send_at) > Date.parse(delivery.created_at);
  return (
    <span className="max-sm:text-right">
      {formatDateTime(delivery.created_at)}
      {delivery.sent_at && <Secondary>{`Sent ${formatDateTime(delivery.sent_at)}`}</Secondary>}
      {!delivery.sent_at && due && <Secondary>{`Due ${formatDateTime(delivery.send_at)}`}</Secondary>}
    </span>
  );
}

function columns(onOpen: (delivery: Delivery) => void): ReadonlyArray<ResponsiveColumn<Delivery>> {
  return [
    {
      header: 'Template',
      primary: true,
      cell: (delivery) => (
        <span>
          <span className="font-medium">{delivery.template_name}</span>{' '}
          <span className="text-xs text-muted-foreground">v{delivery.template_version}</span>
        </span>
      ),
    },
    { header: 'Time', cell: (delivery) => <DeliveryTime delivery={delivery} /> },
    {
      header: 'Channel',
      cell: (delivery) => (
        <span className="max-sm:text-right">
          {delivery.channel_name}
          {delivery.message_thread_id !== null && <Secondary>{topicLabel(delivery)}</Secondary>}
        </span>
      ),
    },
    { header: 'Status', cell: (delivery) => <DeliveryStatusBadge status={delivery.status} /> },
    { header: 'Attempts', numeric: true, cell: (delivery) => delivery.attempts },
    {
      header: 'Error',
      className: 'max-w-64',
      cell: (delivery) =>
        delivery.error ? (
          <span
            title={delivery.error}
            className="line-clamp-2 break-words text-destructive max-sm:text-right"
          >
            {delivery.error}
          </span>
        ) : (
          <span className="text-muted-foreground">None</span>
        ),
    },
    {
      header: 'Actions',
      headerHidden: true,
      cell: (delivery) => (
        <Button variant="ghost" size="sm" className="px-2" onClick={() => onOpen(delivery)}>
          <PanelRightOpen aria-hidden />
          <span className="max-sm:sr-only">Details</span>
          <span className="sr-only"> of delivery {delivery.id}</span>
        </Button>
      ),
    },
  ];
}

interface DeliveriesTableProps {
  deliveries: readonly Delivery[];
  onOpen: (delivery: Delivery) => void;
}

/** The delivery log, newest first; on a phone each delivery is a card headed by its template. */
export function DeliveriesTable({ deliveries, onOpen }: DeliveriesTableProps) {
  return (
    <ResponsiveTable
      aria-label="Deliveries"
      columns={columns(onOpen)}
      rows={deliveries}
      rowKey={(delivery) => delivery.id}
    />
  );
}
