import type { AlertNotificationKind, ContactPoint } from '@lumi/contract';
import { Link } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Dialog } from '@/components/ui/dialog';
import { LoadMore } from '@/components/ui/load-more';
import { ResponsiveTable } from '@/components/ui/responsive-table';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/api-client';
import { useNotifications } from '../api/contact-points';
import { NotificationStatusBadge } from './alert-badges';
import { RelativeTime } from './relative-time';
import { deliveryLink } from './test-button';

const KIND_LABELS: Record<AlertNotificationKind, string> = {
  firing: 'Firing',
  renotify: 'Still firing',
  resolved: 'Resolved',
  test: 'Test',
};

/** The recent notifications of a contact point: status, tries, HTTP status and error, newest first. */
export function NotificationsDialog({ point, onClose }: { point: ContactPoint; onClose: () => void }) {
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={`Notifications of ${point.name}`}
      className="max-w-4xl"
    >
      <NotificationsList point={point} />
    </Dialog>
  );
}

function NotificationsList({ point }: { point: ContactPoint }) {
  const notifications = useNotifications(point.id);
  if (notifications.isPending) {
    return (
      <div role="status" aria-label="Loading notifications">
        <Skeleton className="h-24" />
      </div>
    );
  }
  if (!notifications.data) {
    return (
      <Alert variant="error">{errorMessage(notifications.error, 'Failed to load the notifications')}</Alert>
    );
  }
  const rows = notifications.data.pages.flatMap((page) => page.notifications);
  if (rows.length === 0) {
    return (
      <p className="text-sm text-muted-foreground">
        Nothing sent to it yet. Send a test notification to try it.
      </p>
    );
  }
  return (
    <div className="space-y-3">
      <ResponsiveTable
        aria-label={`Notifications of ${point.name}`}
        rows={rows}
        rowKey={(notification) => notification.id}
        columns={[
          {
            header: 'Rule',
            primary: true,
            cell: (notification) => (
              <span>
                <span className="font-medium">{notification.rule_name ?? 'Test notification'}</span>{' '}
                <span className="text-xs text-muted-foreground">{KIND_LABELS[notification.kind]}</span>
              </span>
            ),
          },
          { header: 'Time', cell: (notification) => <RelativeTime value={notification.created_at} /> },
          {
            header: 'Status',
            cell: (notification) => <NotificationStatusBadge status={notification.status} />,
          },
          { header: 'Tries', numeric: true, cell: (notification) => notification.attempts },
          {
            header: 'HTTP',
            numeric: true,
            cell: (notification) => notification.response_status ?? '—',
          },
          {
            header: 'Details',
            className: 'max-w-64',
            cell: (notification) => (
              <span className="block space-y-0.5 break-words max-sm:text-right">
                {notification.error && <span className="block text-destructive">{notification.error}</span>}
                {notification.delivery_id !== null && (
                  <Link
                    className="text-primary underline-offset-2 hover:underline"
                    to={deliveryLink(notification.delivery_id)}
                  >
                    Delivery {notification.delivery_id}
                  </Link>
                )}
              </span>
            ),
          },
        ]}
      />
      <LoadMore pages={notifications} />
    </div>
  );
}
