import { Download } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { toast } from '@/lib/toast';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/api-client';
import { formatByteSize, saveFile, type DownloadedFile } from '@/lib/download';

export interface ExportFormat<F extends string> {
  format: F;
  /** The format's name in messages: CSV, JSON Lines. */
  name: string;
}

export interface ExportButtonsProps<F extends string> {
  formats: ExportFormat<F>[];
  /** What the files hold, in messages: "the audit log", "top chats". */
  subject: string;
  /** Adds " of <subject>" to each button's accessible name, where several such buttons share a screen. */
  nameSubject?: boolean;
  download: (
    format: F,
    options: { signal: AbortSignal; onProgress: (bytes: number) => void },
  ) => Promise<DownloadedFile>;
}

type Running<F> = { format: F; bytes: number | null };

/**
 * Export buttons for a file the server streams: while one downloads, its button says how far it has got
 * and Cancel stops it; leaving the screen stops it too; a failure says why; a finished file is saved.
 */
export function ExportButtons<F extends string>({
  formats,
  subject,
  nameSubject,
  download,
}: ExportButtonsProps<F>) {
  const [running, setRunning] = useState<Running<F> | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const controller = useRef<AbortController | null>(null);
  const buttons = useRef(new Map<F, HTMLButtonElement | null>());

  // Leaving the screen stops a download nobody is waiting for.
  useEffect(() => () => controller.current?.abort(), []);

  async function start(format: F) {
    if (running) return;
    const abort = new AbortController();
    controller.current = abort;
    setFailure(null);
    setRunning({ format, bytes: null });
    try {
      const file = await download(format, {
        signal: abort.signal,
        onProgress: (bytes) => setRunning({ format, bytes }),
      });
      saveFile(file.name, file.blob);
      toast.success(`Exported ${subject} to ${file.name}`);
    } catch (error) {
      if (!abort.signal.aborted) {
        setFailure(errorMessage(error, 'The export did not finish. Check your connection and try again.'));
      }
    } finally {
      if (controller.current === abort) controller.current = null;
      setRunning(null);
    }
  }

  const runningName = formats.find(({ format }) => format === running?.format)?.name;
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-center gap-2">
        {formats.map(({ format, name }) => (
          // aria-disabled rather than disabled while a file downloads: a disabled button would drop the
          // keyboard focus of the person who pressed it.
          <Button
            key={format}
            ref={(button) => {
              buttons.current.set(format, button);
            }}
            variant="secondary"
            size="sm"
            aria-disabled={running !== null}
            className="aria-disabled:cursor-not-allowed aria-disabled:opacity-50"
            onClick={() => void start(format)}
          >
            <Download aria-hidden />
            {running?.format !== format ? (
              <>
                Export {name}
                {nameSubject && <span className="sr-only"> of {subject}</span>}
              </>
            ) : running.bytes === null ? (
              'Preparing...'
            ) : (
              `Downloading ${formatByteSize(running.bytes)}...`
            )}
          </Button>
        ))}
        {running && (
          <Button
            variant="ghost"
            size="sm"
            onClick={() => {
              // Cancel goes away once the download stops; the focus goes back to the button that began it.
              buttons.current.get(running.format)?.focus();
              controller.current?.abort();
            }}
          >
            Cancel
          </Button>
        )}
        <span role="status" className="sr-only">
          {running ? `Exporting ${subject} as ${runningName}` : ''}
        </span>
      </div>
      {failure && (
        <Alert variant="error" title={`Failed to export ${subject}`} onDismiss={() => setFailure(null)}>
          {failure}
        </Alert>
      )}
    </div>
  );
}
