import type { Silence } from '@lumi/contract';
import { useState } from 'react';
import { toast } from '@/lib/toast';
import { AddButton } from '@/components/ui/add-button';
import { LoadError } from '@/components/ui/load-error';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/dialog';
import { EmptyState } from '@/components/ui/empty-state';
import { ResponsiveTable } from '@/components/ui/responsive-table';
import { Skeleton } from '@/components/ui/skeleton';
import { ViewSection } from '@/components/ui/view-section';
import { errorMessage } from '@/lib/api-client';
import { useHasPermission } from '@/lib/permissions';
import { useDeleteSilence, useSilences } from '../api/silences';
import { describeSilenceScope, describeSilenceWhen } from '../lib/silences';
import { SilenceStatusBadge } from './alert-badges';
import { EndSilenceButton } from './end-silence-button';
import { SilenceDialog } from './silence-dialog';

/**
 * Alerts > Silences (docs/bot-developers/alerts.md, "Silences"): what is muted, when, and why. A silenced
 * alert still changes state and is kept in the history; it only does not notify. Changing needs alerts:write:
 * a silence is edited (a later end extends it), an active one that runs until a time ends now and stays as
 * expired, and any other is deleted.
 */
export function SilencesView() {
  const silences = useSilences();
  const canWrite = useHasPermission('alerts:write');
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<Silence | null>(null);
  const [deleting, setDeleting] = useState<Silence | null>(null);

  return (
    <ViewSection
      id="silences-heading"
      title="Silences"
      description="A silenced alert still changes state and is kept in the history; it only does not notify."
      actions={canWrite && <AddButton onClick={() => setCreating(true)}>New Silence</AddButton>}
    >
      {silences.isPending ? (
        <div role="status" aria-label="Loading silences">
          <Skeleton className="h-32 w-full" />
        </div>
      ) : !silences.data ? (
        <LoadError title="Failed to load the silences" query={silences} />
      ) : silences.data.silences.length === 0 ? (
        <EmptyState>
          No silences. Mute a rule during a deploy, or every rule during a weekly maintenance window.
        </EmptyState>
      ) : (
        <ResponsiveTable
          aria-label="Silences"
          rows={silences.data.silences}
          rowKey={(silence) => silence.id}
          columns={[
            {
              header: 'Mutes',
              primary: true,
              className: 'font-medium',
              cell: (silence) => describeSilenceScope(silence),
            },
            {
              header: 'Kind',
              cell: (silence) => (silence.kind === 'once' ? 'Once' : 'Maintenance window'),
            },
            {
              header: 'When',
              cell: (silence) => <span className="max-sm:text-right">{describeSilenceWhen(silence)}</span>,
            },
            { header: 'Status', cell: (silence) => <SilenceStatusBadge status={silence.status} /> },
            {
              header: 'Comment',
              className: 'max-w-64',
              cell: (silence) => <span className="break-words max-sm:text-right">{silence.comment}</span>,
            },
            { header: 'Created by', cell: (silence) => silence.created_by ?? '—' },
            ...(canWrite
              ? [
                  {
                    header: 'Actions',
                    headerHidden: true,
                    below: true,
                    cell: (silence: Silence) => (
                      <div className="flex justify-end gap-1">
                        <Button
                          variant="ghost"
                          size="sm"
                          onClick={() => setEditing(silence)}
                          aria-label={`Edit silence: ${silence.comment}`}
                        >
                          Edit
                        </Button>
                        {silence.kind === 'once' && silence.status === 'active' ? (
                          <EndSilenceButton silence={silence} />
                        ) : (
                          <Button
                            variant="ghost"
                            size="sm"
                            onClick={() => setDeleting(silence)}
                            aria-label={`Delete silence: ${silence.comment}`}
                          >
                            Delete
                          </Button>
                        )}
                      </div>
                    ),
                  },
                ]
              : []),
          ]}
        />
      )}
      {creating && <SilenceDialog onClose={() => setCreating(false)} />}
      {editing && <SilenceDialog silence={editing} onClose={() => setEditing(null)} />}
      {deleting && <DeleteSilenceDialog silence={deleting} onClose={() => setDeleting(null)} />}
    </ViewSection>
  );
}

/** An active silence deleted here is a maintenance window: an active once silence ends now instead. */
function DeleteSilenceDialog({ silence, onClose }: { silence: Silence; onClose: () => void }) {
  const remove = useDeleteSilence();
  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => !open && onClose()}
      title="Delete this silence?"
      description={`${describeSilenceScope(silence)}: ${
        silence.status === 'active'
          ? 'the alerts it mutes notify again from now on, and its later windows are gone.'
          : 'it will mute nothing more.'
      }`}
      confirmLabel="Delete Silence"
      pendingLabel="Deleting..."
      pending={remove.isPending}
      error={remove.error ? errorMessage(remove.error, 'Failed to delete the silence') : null}
      onConfirm={() =>
        remove.mutate(silence.id, {
          onSuccess: () => {
            toast.success('Silence deleted');
            onClose();
          },
        })
      }
    />
  );
}
