import type { ConfigItem, ConfigItemValues } from '@lumi/contract';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { formatDateTime } from '@/lib/format';
import { SnapshotDiffView } from './snapshot-diff-view';

export interface Conflict {
  /** The server's explanation of the 409. */
  detail: string;
  /** The item as it is now on the server. */
  theirs: ConfigItem;
  /** What this editor tried to save. */
  mine: ConfigItemValues;
}

interface ConflictViewProps extends Conflict {
  pending: boolean;
  onReload: () => void;
  onOverwrite: () => void;
}

/**
 * A save that found a newer version shows both sides (docs/operators/console-guide.md, "Configuration"), so
 * the operator chooses knowingly between their change and their own; nothing is overwritten without that
 * choice.
 */
export function ConflictView({ detail, theirs, mine, pending, onReload, onOverwrite }: ConflictViewProps) {
  return (
    <div className="space-y-4">
      <Alert variant="error" title="Someone else changed this item while you were editing">
        {detail}
      </Alert>
      <p className="text-sm text-muted-foreground">
        Their version {theirs.version} was saved by {theirs.updated_by ?? 'someone'} on{' '}
        {formatDateTime(theirs.updated_at)}. How yours differs from it:
      </p>
      <SnapshotDiffView before={theirs} after={mine} beforeLabel="Theirs" afterLabel="Yours" />
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" disabled={pending} onClick={onReload}>
          Reload their version
        </Button>
        <Button variant="destructive" disabled={pending} onClick={onOverwrite}>
          {pending ? 'Saving...' : 'Overwrite with mine'}
        </Button>
      </div>
    </div>
  );
}
