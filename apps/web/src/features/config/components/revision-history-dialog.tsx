import type { ConfigItem } from '@lumi/contract';
import { Dialog } from '@/components/ui/dialog';
import { RevisionHistory } from './revision-history';

interface RevisionHistoryDialogProps {
  /** The item as the list has it now; it follows restores and other people's changes. */
  item: ConfigItem;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The revision to compare first (a change marker's link names the one its change made). */
  initialRevision?: number | null;
  /** Restore needs config:write; the history itself is there to read with config:read. */
  canRestore: boolean;
}

/** An item's history on its own, opened from its row or from a change marker's link. */
export function RevisionHistoryDialog({
  item,
  open,
  onOpenChange,
  initialRevision,
  canRestore,
}: RevisionHistoryDialogProps) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={`History of ${item.name}`}
      description={`Version ${item.version} is current. Pick a revision to compare it with the current item.`}
      className="md:max-w-4xl"
    >
      <RevisionHistory item={item} initialRevision={initialRevision} canRestore={canRestore} />
    </Dialog>
  );
}
