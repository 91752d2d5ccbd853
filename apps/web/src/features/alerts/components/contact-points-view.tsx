import type { ContactPoint, ContactPointCreated } from '@lumi/contract';
import { useState } from 'react';
import { toast } from '@/lib/toast';
import { AddButton } from '@/components/ui/add-button';
import { LoadError } from '@/components/ui/load-error';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/dialog';
import { EmptyState } from '@/components/ui/empty-state';
import { ResponsiveTable } from '@/components/ui/responsive-table';
import { Skeleton } from '@/components/ui/skeleton';
import { ViewSection } from '@/components/ui/view-section';
import { errorMessage } from '@/lib/api-client';
import { useHasPermission } from '@/lib/permissions';
import { useContactPoints, useDeleteContactPoint } from '../api/contact-points';
import { useRules } from '../api/rules';
import { ContactPointDialog } from './contact-point-dialog';
import { NotificationsDialog } from './notifications-dialog';
import { TestButton } from './test-button';
import { WebhookSecretDialog } from './webhook-secret-dialog';

/**
 * Alerts > Contact points (docs/bot-developers/alerts.md, "Contact points"): where alerts go, a Telegram chat
 * or a webhook, with the rules that use each, a test button and the recent notifications. Changing needs
 * alerts:write.
 */
export function ContactPointsView() {
  const points = useContactPoints();
  const rules = useRules();
  const canWrite = useHasPermission('alerts:write');
  const [editing, setEditing] = useState<ContactPoint | 'new' | null>(null);
  const [created, setCreated] = useState<ContactPointCreated | null>(null);
  const [deleting, setDeleting] = useState<ContactPoint | null>(null);
  const [showing, setShowing] = useState<ContactPoint | null>(null);

  const rulesUsing = (point: ContactPoint) =>
    (rules.data?.rules ?? [])
      .filter((rule) => rule.contact_point_ids.includes(point.id))
      .map((rule) => rule.name);

  return (
    <ViewSection
      id="contact-points-heading"
      title="Contact points"
      actions={canWrite && <AddButton onClick={() => setEditing('new')}>New Contact Point</AddButton>}
    >
      {points.isPending ? (
        <div role="status" aria-label="Loading contact points">
          <Skeleton className="h-32 w-full" />
        </div>
      ) : !points.data ? (
        <LoadError title="Failed to load the contact points" query={points} />
      ) : points.data.contact_points.length === 0 ? (
        <EmptyState>
          No contact points yet. A contact point is a Telegram chat or a webhook the rules notify.
        </EmptyState>
      ) : (
        <ResponsiveTable
          aria-label="Contact points"
          rows={points.data.contact_points}
          rowKey={(point) => point.id}
          columns={[
            { header: 'Name', primary: true, className: 'font-medium', cell: (point) => point.name },
            {
              header: 'Type',
              cell: (point) => <Badge>{point.type === 'telegram' ? 'Telegram' : 'Webhook'}</Badge>,
            },
            { header: 'Target', className: 'max-w-72', cell: (point) => <Target point={point} /> },
            {
              header: 'Used by',
              cell: (point) => {
                const names = rulesUsing(point);
                const count = rules.data ? names.length : point.rule_count;
                return (
                  <span title={names.join(', ') || undefined} className="max-sm:text-right">
                    {count === 0 ? 'No rule' : count === 1 ? '1 rule' : `${count} rules`}
                  </span>
                );
              },
            },
            {
              // Up to four buttons: on a phone they get a line of their own instead of the card's corner.
              header: 'Actions',
              cell: (point) => (
                <div className="flex flex-wrap justify-end gap-1">
                  <Button
                    variant="ghost"
                    size="sm"
                    onClick={() => setShowing(point)}
                    aria-label={`Notifications of ${point.name}`}
                  >
                    Notifications
                  </Button>
                  {canWrite && (
                    <>
                      <TestButton point={point} />
                      <Button
                        variant="ghost"
                        size="sm"
                        onClick={() => setEditing(point)}
                        aria-label={`Edit ${point.name}`}
                      >
                        Edit
                      </Button>
                      <Button
                        variant="ghost"
                        size="sm"
                        onClick={() => setDeleting(point)}
                        aria-label={`Delete ${point.name}`}
                      >
                        Delete
                      </Button>
                    </>
                  )}
                </div>
              ),
            },
          ]}
        />
      )}
      <ContactPointDialog
        key={editing === 'new' ? 'new' : (editing?.id ?? 'closed')}
        point={editing === 'new' || editing === null ? undefined : editing}
        open={editing !== null}
        onOpenChange={(open) => !open && setEditing(null)}
        onCreated={(point) => point.secret && setCreated(point)}
      />
      {created && <WebhookSecretDialog created={created} onClose={() => setCreated(null)} />}
      {showing && <NotificationsDialog point={showing} onClose={() => setShowing(null)} />}
      {deleting && <DeleteContactPointDialog point={deleting} onClose={() => setDeleting(null)} />}
    </ViewSection>
  );
}

/** Where a contact point sends: the channel (topic, template) or the URL. */
function Target({ point }: { point: ContactPoint }) {
  if (point.type === 'webhook') {
    return <span className="font-mono text-xs break-all max-sm:text-right">{point.url}</span>;
  }
  return (
    <span className="max-sm:text-right">
      {point.channel_name ?? 'Deleted channel'}
      <span className="block text-xs text-muted-foreground">
        {point.topic_id !== null ? 'In a topic · ' : ''}Template: {point.template_name ?? 'alert (default)'}
      </span>
    </span>
  );
}

function DeleteContactPointDialog({ point, onClose }: { point: ContactPoint; onClose: () => void }) {
  const remove = useDeleteContactPoint();
  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={`Delete '${point.name}'?`}
      description="Rules can no longer notify it. Its past notifications are deleted with it."
      confirmLabel="Delete Contact Point"
      pendingLabel="Deleting..."
      pending={remove.isPending}
      error={remove.error ? errorMessage(remove.error, 'Failed to delete the contact point') : null}
      onConfirm={() =>
        remove.mutate(point.id, {
          onSuccess: () => {
            toast.success(`Contact point '${point.name}' deleted`);
            onClose();
          },
        })
      }
    />
  );
}
