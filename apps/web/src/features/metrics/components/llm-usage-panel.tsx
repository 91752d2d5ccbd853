import { lazy, Suspense } from 'react';
import { LLM_USAGE_DAYS, useLlmUsage } from '../api/get-llm-usage';
import { formatCount, formatUsd } from '../lib/format-metrics';
import { isLlmUsageEmpty } from '../lib/llm-usage-series';
import { panelErrorMessage } from '../lib/panel-error';
import { ChartFallback } from './chart-fallback';
import { MetricCard, Totals } from './metric-card';
import { PanelEmpty, PanelError, PanelSkeleton } from './panel-states';

const LlmUsageChart = lazy(() => import('./llm-usage-chart').then((m) => ({ default: m.LlmUsageChart })));

const TITLE = 'LLM Usage';

/** The LLM Usage panel: totals of the last 30 days and the line chart of tokens per day and provider. */
export function LlmUsagePanel({ className }: { className?: string }) {
  const usage = useLlmUsage();
  const data = usage.data;
  return (
    <MetricCard title={TITLE} description={`Last ${LLM_USAGE_DAYS} days`} className={className}>
      {usage.isPending && <PanelSkeleton label={TITLE} rows={6} />}
      {usage.isError && !data && (
        <PanelError message={panelErrorMessage(usage.error)} onRetry={() => void usage.refetch()} />
      )}
      {data && isLlmUsageEmpty(data) && (
        <PanelEmpty>No LLM calls were reported in the last {LLM_USAGE_DAYS} days.</PanelEmpty>
      )}
      {data && !isLlmUsageEmpty(data) && (
        <div className="space-y-4">
          <Totals
            items={[
              { label: 'Tokens', value: formatCount(data.totals.tokens) },
              { label: 'Cost', value: formatUsd(data.totals.cost) },
              { label: 'Requests', value: formatCount(data.totals.requests) },
            ]}
          />
          <Suspense fallback={<ChartFallback />}>
            <LlmUsageChart usage={data} days={LLM_USAGE_DAYS} />
          </Suspense>
        </div>
      )}
    </MetricCard>
  );
}
