import type { DeliverySummary } from '@lumi/contract';
import { Link } from 'react-router';
import { cn } from '@/lib/cn';
import { useDeliverySummary } from '../api/get-delivery-summary';
import { formatCount } from '../lib/format-metrics';
import { panelErrorMessage } from '../lib/panel-error';
import { MetricCard, Stat } from './metric-card';
import { PanelError, PanelSkeleton } from './panel-states';

const TITLE = 'Deliveries';

/** The figures the card leads with; each opens the delivery log filtered to it, over the same 24 hours. */
const TILES = [
  { status: 'sent', label: 'Sent' },
  { status: 'failed', label: 'Failed' },
  { status: 'refused', label: 'Refused' },
  { status: 'queued', label: 'Queued' },
] as const;

/** Tiles whose figure is a problem when it is not zero. */
const PROBLEMS = new Set<string>(['failed', 'refused']);

function deliveriesLink(status: string): string {
  return `/messages?view=deliveries&status=${status}&range=24h`;
}

function DeliveryFigures({ summary }: { summary: DeliverySummary }) {
  const others = [
    { status: 'sending', label: 'Sending', value: summary.sending },
    { status: 'unknown', label: 'Unknown', value: summary.unknown },
    { status: 'cancelled', label: 'Cancelled', value: summary.cancelled },
  ].filter((other) => other.value > 0);
  return (
    <div className="space-y-3">
      <ul className="grid grid-cols-4 gap-2">
        {TILES.map(({ status, label }) => (
          <li key={status}>
            <Link
              to={deliveriesLink(status)}
              className={cn(
                'block min-w-0 rounded-md bg-muted/60 p-2 hover:bg-muted',
                'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring',
              )}
            >
              <span className="block text-xs text-muted-foreground">{label}</span>
              <span
                className={cn(
                  'block text-base font-semibold tabular-nums sm:text-lg',
                  PROBLEMS.has(status) && summary[status] > 0 && 'text-destructive',
                )}
              >
                {formatCount(summary[status])}
              </span>
              <span className="sr-only"> deliveries in the last 24 hours: show them</span>
            </Link>
          </li>
        ))}
      </ul>
      {others.length > 0 && (
        <dl>
          {others.map((other) => (
            <Stat key={other.status} label={other.label}>
              <Link to={deliveriesLink(other.status)} className="underline-offset-2 hover:underline">
                {formatCount(other.value)}
              </Link>
            </Stat>
          ))}
        </dl>
      )}
    </div>
  );
}

/**
 * Deliveries in the last 24 hours: sent, failed, refused and queued, each a link to the delivery log
 * filtered by that status; the rarer states below them when there are any.
 */
export function DeliveriesCard() {
  const summary = useDeliverySummary();
  return (
    <MetricCard title={TITLE} description="Last 24 hours">
      {summary.isPending && <PanelSkeleton label={TITLE} rows={2} />}
      {summary.isError && !summary.data && (
        <PanelError message={panelErrorMessage(summary.error)} onRetry={() => void summary.refetch()} />
      )}
      {summary.data && <DeliveryFigures summary={summary.data} />}
    </MetricCard>
  );
}
