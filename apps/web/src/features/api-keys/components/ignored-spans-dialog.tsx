import type { ApiKey, IgnoredSpan } from '@lumi/contract';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { ResponsiveTable, type ResponsiveColumn } from '@/components/ui/responsive-table';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { useIgnoredSpans } from '../api/list-ignored-spans';

const COLUMNS: ReadonlyArray<ResponsiveColumn<IgnoredSpan>> = [
  {
    header: 'Span',
    primary: true,
    cell: (span) => (
      <span className="break-all">
        <span className="font-medium">{span.name || 'Unnamed span'}</span>
        <span className="block font-mono text-xs text-muted-foreground">{span.span_id}</span>
      </span>
    ),
  },
  { header: 'Why', cell: (span) => span.reason },
  {
    header: 'Received',
    className: 'text-xs whitespace-nowrap',
    cell: (span) => formatDateTime(span.received_at),
  },
];

/**
 * The key's latest OTLP spans that Lumi did not store as LLM calls, and why (docs/bot-developers/otlp.md,
 * "Ignored spans"): what a bot developer checks first when nothing shows up.
 */
export function IgnoredSpansDialog({
  apiKey,
  onOpenChange,
}: {
  apiKey: ApiKey;
  onOpenChange: (open: boolean) => void;
}) {
  const spans = useIgnoredSpans(apiKey.id);
  return (
    <Dialog
      open
      onOpenChange={onOpenChange}
      title={`Ignored Spans: ${apiKey.name}`}
      description="The latest spans this key exported that were not stored as LLM calls, newest first."
      className="max-w-3xl"
    >
      {spans.isPending && (
        <div role="status" aria-label="Loading ignored spans" className="space-y-2">
          {Array.from({ length: 3 }, (_, index) => (
            <Skeleton key={index} className="h-10 w-full" />
          ))}
        </div>
      )}
      {spans.isError && (
        <Alert variant="error">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <span>{errorMessage(spans.error, 'Failed to load ignored spans')}</span>
            <Button variant="secondary" size="sm" onClick={() => void spans.refetch()}>
              Retry
            </Button>
          </div>
        </Alert>
      )}
      {spans.data?.spans.length === 0 && (
        <p className="rounded-md border border-dashed py-8 text-center text-sm text-muted-foreground">
          No ignored spans: every span this key exported was stored.
        </p>
      )}
      {spans.data && spans.data.spans.length > 0 && (
        <div className="max-h-[60vh] overflow-y-auto">
          <ResponsiveTable
            aria-label="Ignored spans"
            columns={COLUMNS}
            rows={spans.data.spans}
            rowKey={(span) => `${span.received_at}:${span.trace_id}:${span.span_id}`}
          />
        </div>
      )}
    </Dialog>
  );
}
