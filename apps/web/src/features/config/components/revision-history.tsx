import type { ConfigItem, ConfigRevision } from '@lumi/contract';
import { useId, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/dialog';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { formatDateTime } from '@/lib/format';
import { useConfigRevisions } from '../api/list-config-revisions';
import { useRestoreConfigRevision } from '../api/restore-config-revision';
import { FIELD_LABELS, SNAPSHOT_FIELDS } from '../lib/snapshot-diff';
import { SnapshotDiffView } from './snapshot-diff-view';

interface RevisionHistoryProps {
  /** The item as the list has it now; it follows restores and other people's changes. */
  item: ConfigItem;
  /** The revision to compare first (a change marker's link names the one its change made). */
  initialRevision?: number | null;
  /** Restore needs config:write; the history itself is there to read with config:read. */
  canRestore: boolean;
}

function describeAction(revision: ConfigRevision): string {
  if (revision.action === 'created') return 'Created';
  if (revision.action === 'restored') return `Restored from revision ${revision.restored_from ?? '?'}`;
  return 'Updated';
}

function changedLabels(revision: ConfigRevision): string {
  return SNAPSHOT_FIELDS.filter((field) => revision.changes.includes(field))
    .map((field) => FIELD_LABELS[field])
    .join(', ');
}

function RevisionEntry({
  revision,
  current,
  selected,
  onSelect,
}: {
  revision: ConfigRevision;
  current: boolean;
  selected: boolean;
  onSelect: () => void;
}) {
  return (
    <button
      type="button"
      aria-current={selected ? 'true' : undefined}
      onClick={onSelect}
      className={cn(
        'w-full rounded-md border px-3 py-2 text-left text-sm hover:bg-muted/50',
        selected && 'border-primary bg-accent text-accent-foreground hover:bg-accent',
      )}
    >
      <span className="flex items-center justify-between gap-2 font-medium">
        Revision {revision.revision}
        {current && <Badge variant="success">Current</Badge>}
      </span>
      <span className="block text-xs">
        {describeAction(revision)} by {revision.updated_by ?? 'unknown'}
      </span>
      <span className="block text-xs opacity-80">{formatDateTime(revision.created_at)}</span>
      {revision.action !== 'created' && revision.changes.length > 0 && (
        <span className="block text-xs opacity-80">Changed: {changedLabels(revision)}</span>
      )}
    </button>
  );
}

/**
 * Configuration history (spec section 2, "Configuration Management"; docs/bot-developers/configuration-api.md): every revision of an item, a field-by-field diff against the current one, and restore. Shown
 * in a dialog of its own, and in a reader's view of the item.
 */
export function RevisionHistory({ item, initialRevision = null, canRestore }: RevisionHistoryProps) {
  const revisions = useConfigRevisions(item.domain, item.id);
  const restore = useRestoreConfigRevision();
  const [selected, setSelected] = useState<number | null>(initialRevision);
  const [confirming, setConfirming] = useState(false);
  const [restored, setRestored] = useState<number | null>(null);
  const headingId = useId();
  const list = revisions.data ?? [];
  // Until one is picked: the newest revision that differs from the current one.
  const chosen =
    list.find((revision) => revision.revision === selected) ??
    list.find((revision) => revision.revision !== item.version) ??
    list[0];

  function confirmRestore(revision: number) {
    restore.mutate(
      { domain: item.domain, id: item.id, revision, version: item.version },
      {
        onSuccess: () => {
          setConfirming(false);
          setRestored(revision);
        },
      },
    );
  }

  if (revisions.isError) {
    return (
      <Alert variant="error" title="Failed to load history">
        {errorMessage(revisions.error, 'Failed to get configuration')}
      </Alert>
    );
  }
  if (revisions.isPending) {
    return (
      <div role="status" aria-label="Loading history" className="space-y-2">
        <Skeleton className="h-16" />
        <Skeleton className="h-16" />
      </div>
    );
  }
  return (
    <div className="grid gap-4 md:grid-cols-[14rem_1fr]">
      <ol aria-label="Revisions" className="max-h-56 space-y-2 overflow-y-auto pr-1 md:max-h-[60vh]">
        {list.map((revision) => (
          <li key={revision.revision}>
            <RevisionEntry
              revision={revision}
              current={revision.revision === item.version}
              selected={revision.revision === chosen?.revision}
              onSelect={() => setSelected(revision.revision)}
            />
          </li>
        ))}
      </ol>
      {chosen && (
        <section aria-labelledby={headingId} className="min-w-0 space-y-3">
          {restored !== null && (
            <Alert variant="success" onDismiss={() => setRestored(null)}>
              Revision {restored} was restored as version {item.version}.
            </Alert>
          )}
          <h3 id={headingId} className="font-semibold">
            Revision {chosen.revision} compared with the current version
          </h3>
          {chosen.revision === item.version ? (
            <p className="text-sm text-muted-foreground">This is the current version.</p>
          ) : (
            <>
              <SnapshotDiffView
                before={chosen.snapshot}
                after={item}
                beforeLabel={`Revision ${chosen.revision}`}
                afterLabel="Current"
              />
              {canRestore && (
                <div className="flex justify-end">
                  <Button variant="secondary" onClick={() => setConfirming(true)}>
                    Restore revision {chosen.revision}
                  </Button>
                </div>
              )}
            </>
          )}
          <ConfirmDialog
            open={confirming}
            onOpenChange={(next) => {
              setConfirming(next);
              if (!next) restore.reset();
            }}
            title={`Restore revision ${chosen.revision}?`}
            description="The item gets this revision's values back as a new revision. The current values stay in the history."
            confirmLabel="Restore"
            pendingLabel="Restoring..."
            pending={restore.isPending}
            error={restore.error ? errorMessage(restore.error, 'Failed to update configuration') : null}
            onConfirm={() => confirmRestore(chosen.revision)}
          />
        </section>
      )}
    </div>
  );
}
