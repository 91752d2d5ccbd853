import type { ApiKey, IgnoredSpan } from '@lumi/contract';
import { Dialog } from '@/components/ui/dialog';
import { EmptyState } from '@/components/ui/empty-state';
import { RetryAlert } from '@/components/ui/load-error';
import { ResponsiveTable, type ResponsiveColumn } from '@/components/ui/responsive-table';
import { SkeletonList } from '@/components/ui/skeleton';
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
      {spans.isPending && <SkeletonList label="Loading ignored spans" rows={3} rowClassName="h-10" />}
      {spans.isError && (
        <RetryAlert onRetry={() => void spans.refetch()}>
          {errorMessage(spans.error, 'Failed to load ignored spans')}
        </RetryAlert>
      )}
      {spans.data?.spans.length === 0 && (
        <EmptyState>No ignored spans: every span this key exported was stored.</EmptyState>
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
