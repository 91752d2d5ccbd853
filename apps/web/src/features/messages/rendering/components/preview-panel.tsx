import type { ParseMode, Template } from '@lumi/contract';
import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/api-client';
import { useRenderedPreview } from '../hooks/use-rendered-preview';
import type { SampleData } from '../../variables/lib/sample-data';
import { Panel } from '../../components/panel';
import { RenderedMessage } from './rendered-message';

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
              {result.rendered && <RenderedMessage result={result} parseMode={parseMode} raw={raw} />}
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
