import type { MetricsExportPanel } from '@lumi/contract';
import { Download } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/api-client';
import { formatByteSize, saveFile } from '@/lib/download';
import { downloadPanelExport } from '../api/export-panel';
import type { TimeRange } from '../lib/time-range';

/** What each panel's file holds, in the messages about it. */
const PANEL_NAMES: Record<MetricsExportPanel, string> = {
  usage: 'LLM usage',
  'top-chats': 'top chats',
  'top-users': 'top users',
  integrations: 'integrations',
};

export interface PanelExportButtonProps {
  /** Which panel's rows: usage (by day, provider, model and feature), top-chats, top-users, integrations. */
  panel: MetricsExportPanel;
  /** The range the panel shows; a relative range is resolved when the button is pressed. */
  range: TimeRange;
}

/**
 * Export CSV (issue 17, "CSV export"): the rows a panel shows over its range, as a file. While it
 * downloads, the button says how far it has got and Cancel stops it; a failure says why.
 */
export function PanelExportButton({ panel, range }: PanelExportButtonProps) {
  const [bytes, setBytes] = useState<number | null | undefined>(undefined);
  const [failure, setFailure] = useState<string | null>(null);
  const controller = useRef<AbortController | null>(null);
  const button = useRef<HTMLButtonElement>(null);
  const running = bytes !== undefined;
  const name = PANEL_NAMES[panel];

  // Leaving the screen stops a download nobody is waiting for.
  useEffect(() => () => controller.current?.abort(), []);

  async function start() {
    if (running) return;
    const abort = new AbortController();
    controller.current = abort;
    setFailure(null);
    setBytes(null);
    try {
      const file = await downloadPanelExport(panel, range, {
        signal: abort.signal,
        onProgress: setBytes,
      });
      saveFile(file.name, file.blob);
      toast.success(`Exported ${name} to ${file.name}`);
    } catch (error) {
      if (!abort.signal.aborted) {
        setFailure(errorMessage(error, 'The export did not finish. Check your connection and try again.'));
      }
    } finally {
      if (controller.current === abort) controller.current = null;
      setBytes(undefined);
    }
  }

  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-center gap-2">
        {/* aria-disabled rather than disabled while it downloads: disabled would drop the keyboard focus. */}
        <Button
          ref={button}
          variant="secondary"
          size="sm"
          aria-disabled={running}
          className="aria-disabled:cursor-not-allowed aria-disabled:opacity-50"
          onClick={() => void start()}
        >
          <Download aria-hidden />
          {!running ? (
            <>
              Export CSV<span className="sr-only"> of {name}</span>
            </>
          ) : bytes === null ? (
            'Preparing...'
          ) : (
            `Downloading ${formatByteSize(bytes)}...`
          )}
        </Button>
        {running && (
          <Button
            variant="ghost"
            size="sm"
            onClick={() => {
              // Cancel goes away once the download stops; the focus goes back to the button that began it.
              button.current?.focus();
              controller.current?.abort();
            }}
          >
            Cancel
          </Button>
        )}
        <span role="status" className="sr-only">
          {running ? `Exporting ${name} as CSV` : ''}
        </span>
      </div>
      {failure && (
        <Alert variant="error" title={`Failed to export ${name}`} onDismiss={() => setFailure(null)}>
          {failure}
        </Alert>
      )}
    </div>
  );
}
