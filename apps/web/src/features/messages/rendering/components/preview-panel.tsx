import { MESSAGING_LIMITS, type ParseMode, type Template } from '@lumi/contract';
import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { useRenderedPreview } from '../hooks/use-rendered-preview';
import type { SampleData } from '../../variables/lib/sample-data';
import { Panel } from '../../components/panel';
import { TelegramMessage } from './telegram-message';

const count = new Intl.NumberFormat('en-US');

interface PreviewPanelProps {
  /** The saved template, or none while a new one is created. */
  template: Template | null;
  content: string;
  parseMode: ParseMode;
  /** The sample data the editor shares with the Test panel. */
  data: SampleData;
}

/** The Preview panel: the content rendered with the sample data, as Telegram would show it. */
export function PreviewPanel({ template, content, parseMode, data }: PreviewPanelProps) {
  const preview = useRenderedPreview({ template, content, parseMode, data });
  const [raw, setRaw] = useState(false);
  const result = preview.data;
  const error = result && !result.success ? result.error : undefined;

  return (
    <Panel id="preview-panel-title" title="Preview">
      <div className="space-y-3">
        <div className="flex items-center justify-between gap-2">
          <p aria-live="polite" className="text-xs text-muted-foreground">
            {preview.rendering ? 'Rendering...' : ''}
          </p>
          <Button variant="secondary" size="sm" aria-pressed={raw} onClick={() => setRaw((value) => !value)}>
            {raw ? 'Show formatted' : 'Show raw text'}
          </Button>
        </div>
        {content.trim() === '' ? (
          <p className="text-sm text-muted-foreground">Write the template content to see a preview.</p>
        ) : preview.isError ? (
          <Alert variant="error">{errorMessage(preview.error, 'Failed to render template')}</Alert>
        ) : (
          result && (
            <>
              {error !== undefined && <Alert variant="error">{error || 'Failed to render template'}</Alert>}
              {result.rendered && (
                <figure aria-label="Rendered message" className="space-y-1">
                  <div className="rounded-2xl rounded-bl-sm border bg-card p-3 shadow-sm">
                    {raw ? (
                      <pre className="font-mono text-xs break-words whitespace-pre-wrap">
                        {result.rendered}
                      </pre>
                    ) : (
                      <TelegramMessage text={result.rendered} parseMode={parseMode} />
                    )}
                  </div>
                  <figcaption
                    className={cn(
                      'text-right text-xs',
                      result.length > MESSAGING_LIMITS.telegramTextMax
                        ? 'font-medium text-destructive'
                        : 'text-muted-foreground',
                    )}
                  >
                    {count.format(result.length)} / {count.format(MESSAGING_LIMITS.telegramTextMax)}{' '}
                    characters
                    {result.length > MESSAGING_LIMITS.telegramTextMax && ' (too long for Telegram)'}
                  </figcaption>
                </figure>
              )}
              {result.warnings.length > 0 && (
                <ul aria-label="Warnings" className="space-y-1 text-xs text-warning">
                  {result.warnings.map((warning) => (
                    <li key={warning}>Warning: {warning}</li>
                  ))}
                </ul>
              )}
            </>
          )
        )}
      </div>
    </Panel>
  );
}
