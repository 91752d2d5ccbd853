import { TriangleAlert } from 'lucide-react';
import { lazy, Suspense, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { formatCurrency } from '@/lib/format';
import { LLM_USAGE_RANGES, useLlmUsage, type LlmUsageDays } from '../api/get-llm-usage';
import { callsLink } from '../lib/call-filters';
import { formatCount } from '../lib/format-metrics';
import { isLlmUsageEmpty } from '../lib/llm-usage-series';
import { panelErrorMessage } from '../lib/panel-error';
import { zonedDay } from '../lib/zoned-day';
import { AfterPaint } from './after-paint';
import { ChartFallback } from './chart-fallback';
import { MetricCard, Totals } from './metric-card';
import { PanelEmpty, PanelError, PanelSkeleton } from './panel-states';
import { WindowPicker } from './window-picker';

const LlmUsageChart = lazy(() => import('./llm-usage-chart').then((m) => ({ default: m.LlmUsageChart })));

const TITLE = 'LLM Usage';

const RANGE_OPTIONS = LLM_USAGE_RANGES.map((days) => ({ value: days, label: `${days} days` }));

interface LlmUsagePanelProps {
  days: LlmUsageDays;
  onDaysChange: (days: LlmUsageDays) => void;
  className?: string;
  /** Buttons in the panel's header (an export of its rows, say). */
  actions?: ReactNode;
  /** Passed to the chart: recharts elements drawn over its lines (change markers). */
  markers?: ReactNode;
}

/**
 * Calls Lumi could not price count as $0 in the cost, so the panel says how many there are and where to
 * price them (docs/operators/metrics.md, "Token budgets and model prices").
 */
function UnpricedCalls({ count }: { count: number }) {
  return (
    <p className="flex items-start gap-2 text-sm text-warning">
      <TriangleAlert aria-hidden className="mt-0.5 size-4 shrink-0" />
      <span>
        {formatCount(count)} {count === 1 ? 'call' : 'calls'} without a price or token usage: the cost leaves{' '}
        {count === 1 ? 'it' : 'them'} out.{' '}
        <Link to="/metrics?tab=token-budgets" className="underline underline-offset-2">
          See Model Prices
        </Link>
      </span>
    </p>
  );
}

/** The LLM Usage panel: totals of the chosen range and the line chart of tokens per day and provider. */
export function LlmUsagePanel({ days, onDaysChange, className, actions, markers }: LlmUsagePanelProps) {
  const usage = useLlmUsage(days);
  const data = usage.data;
  const navigate = useNavigate();
  // A point is a provider's day in LUMI_TIMEZONE: its calls are that provider's over that day.
  const openCalls = (provider: string, date: string) => {
    if (!data) return;
    const { from, to } = zonedDay(date, data.window.timezone);
    const range = {
      kind: 'custom',
      from: new Date(from).toISOString(),
      to: new Date(to).toISOString(),
    } as const;
    void navigate(callsLink({ provider }, range));
  };
  return (
    <MetricCard
      title={TITLE}
      description={`Last ${days} days`}
      aside={<WindowPicker label="Range" value={days} options={RANGE_OPTIONS} onChange={onDaysChange} />}
      actions={actions}
      className={className}
    >
      {usage.isPending && <PanelSkeleton label={TITLE} rows={0} chart />}
      {usage.isError && !data && (
        <PanelError message={panelErrorMessage(usage.error)} onRetry={() => void usage.refetch()} />
      )}
      {data && isLlmUsageEmpty(data) && (
        <PanelEmpty>No LLM calls were reported in the last {days} days.</PanelEmpty>
      )}
      {data && !isLlmUsageEmpty(data) && (
        <div className="space-y-4">
          <Totals
            items={[
              { label: 'Tokens', value: formatCount(data.totals.tokens) },
              { label: 'Cost', value: formatCurrency(data.totals.cost) },
              { label: 'Requests', value: formatCount(data.totals.requests) },
            ]}
          />
          {data.unpriced_requests > 0 && <UnpricedCalls count={data.unpriced_requests} />}
          <Suspense fallback={<ChartFallback />}>
            <AfterPaint fallback={<ChartFallback />}>
              <LlmUsageChart usage={data} days={days} markers={markers} onPointClick={openCalls} />
            </AfterPaint>
          </Suspense>
        </div>
      )}
    </MetricCard>
  );
}
