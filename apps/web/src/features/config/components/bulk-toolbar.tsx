import { Power, PowerOff, X } from 'lucide-react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import type { BulkFailure } from '../hooks/use-bulk-active';

interface BulkToolbarProps {
  selected: number;
  progress: { done: number; total: number } | null;
  failures: BulkFailure[];
  onEnable: () => void;
  onDisable: () => void;
  onClear: () => void;
  onDismissFailures: () => void;
}

/** Shown while items are selected: Enable and Disable them all, with progress and what failed, item by item. */
export function BulkToolbar({
  selected,
  progress,
  failures,
  onEnable,
  onDisable,
  onClear,
  onDismissFailures,
}: BulkToolbarProps) {
  const busy = progress !== null;
  return (
    <>
      {(selected > 0 || busy) && (
        <div
          role="toolbar"
          aria-label="Selected items"
          className="flex flex-wrap items-center gap-2 rounded-md border bg-muted/50 px-3 py-2"
        >
          <span className="mr-auto text-sm font-medium" aria-live="polite">
            {busy ? `Updating ${progress.done} of ${progress.total}...` : `${selected} selected`}
          </span>
          <Button size="sm" variant="secondary" disabled={busy} onClick={onEnable}>
            <Power aria-hidden />
            Enable selected
          </Button>
          <Button size="sm" variant="secondary" disabled={busy} onClick={onDisable}>
            <PowerOff aria-hidden />
            Disable selected
          </Button>
          <Button size="sm" variant="ghost" disabled={busy} onClick={onClear}>
            <X aria-hidden />
            Clear selection
          </Button>
        </div>
      )}
      {failures.length > 0 && (
        <Alert
          variant="error"
          title={`${failures.length} ${failures.length === 1 ? 'item was' : 'items were'} not changed (still selected):`}
          onDismiss={onDismissFailures}
        >
          <ul className="mt-1 list-disc space-y-1 pl-5">
            {failures.map((failure) => (
              <li key={failure.name}>
                <span className="font-medium">{failure.name}</span>: {failure.message}
              </li>
            ))}
          </ul>
        </Alert>
      )}
    </>
  );
}
