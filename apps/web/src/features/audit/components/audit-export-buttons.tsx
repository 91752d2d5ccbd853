import type { AuditExportFormat } from '@lumi/contract';
import { Download } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/api-client';
import { formatByteSize, saveFile } from '@/lib/download';
import { downloadAuditExport } from '../api/export-audit-logs';
import type { AuditFilters } from '../hooks/use-audit-filters';

const FORMATS: { format: AuditExportFormat; label: string }[] = [
  { format: 'csv', label: 'Export CSV' },
  { format: 'jsonl', label: 'Export JSON Lines' },
];

type Running = { format: AuditExportFormat; bytes: number | null };

/**
 * Export CSV and Export JSON Lines: every entry the applied filters match (issue 18, "Audit export"), not
 * only the pages shown. While a file downloads, its button says how far it has got and Cancel stops it.
 */
export function AuditExportButtons({ filters }: { filters: AuditFilters }) {
  const [running, setRunning] = useState<Running | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const controller = useRef<AbortController | null>(null);
  const buttons = useRef<Partial<Record<AuditExportFormat, HTMLButtonElement | null>>>({});

  // Leaving the screen stops a download nobody is waiting for.
  useEffect(() => () => controller.current?.abort(), []);

  async function start(format: AuditExportFormat) {
    if (running) return;
    const abort = new AbortController();
    controller.current = abort;
    setFailure(null);
    setRunning({ format, bytes: null });
    try {
      const file = await downloadAuditExport(format, filters, {
        signal: abort.signal,
        onProgress: (bytes) => setRunning({ format, bytes }),
      });
      saveFile(file.name, file.blob);
      toast.success(`Exported the audit log to ${file.name}`);
    } catch (error) {
      if (!abort.signal.aborted) {
        setFailure(errorMessage(error, 'The export did not finish. Check your connection and try again.'));
      }
    } finally {
      if (controller.current === abort) controller.current = null;
      setRunning(null);
    }
  }

  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-center gap-2">
        {FORMATS.map(({ format, label }) => (
          // aria-disabled rather than disabled while a file downloads: a disabled button would drop the
          // keyboard focus of the person who pressed it.
          <Button
            key={format}
            ref={(button) => {
              buttons.current[format] = button;
            }}
            variant="secondary"
            size="sm"
            aria-disabled={running !== null}
            className="aria-disabled:cursor-not-allowed aria-disabled:opacity-50"
            onClick={() => void start(format)}
          >
            <Download aria-hidden />
            {running?.format === format
              ? running.bytes === null
                ? 'Preparing...'
                : `Downloading ${formatByteSize(running.bytes)}...`
              : label}
          </Button>
        ))}
        {running && (
          <Button
            variant="ghost"
            size="sm"
            onClick={() => {
              // Cancel goes away once the download stops; the focus goes back to the button that began it.
              buttons.current[running.format]?.focus();
              controller.current?.abort();
            }}
          >
            Cancel
          </Button>
        )}
        <span role="status" className="sr-only">
          {running ? `Exporting the audit log as ${running.format === 'csv' ? 'CSV' : 'JSON Lines'}` : ''}
        </span>
      </div>
      {failure && (
        <Alert variant="error" title="Failed to export the audit log" onDismiss={() => setFailure(null)}>
          {failure}
        </Alert>
      )}
    </div>
  );
}
