import type { LlmLatency } from '@lumi/contract';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { ResponsiveTable, type ResponsiveColumn } from '@/components/ui/responsive-table';
import { useLlmLatency } from '../api/get-llm-latency';
import { formatCount } from '../lib/format-metrics';
import {
  formatLatency,
  isLatencyEmpty,
  latencySummary,
  modelName,
  PERCENTILES,
  toLatencySeries,
  type Percentile,
} from '../lib/latency-series';
import { panelErrorMessage } from '../lib/panel-error';
import { describeHourlyRange, describeTimeRange, type TimeRange } from '../lib/time-range';
import { AfterPaint } from './after-paint';
import { ChartFallback } from './chart-fallback';
import { MetricCard } from './metric-card';
import { PanelEmpty, PanelError, PanelSkeleton } from './panel-states';
import { WindowPicker } from './window-picker';

const TimeSeriesChart = lazy(() =>
  import('./time-series-chart').then((m) => ({ default: m.TimeSeriesChart })),
);

const TITLE = 'Latency';

type ModelRow = LlmLatency['models'][number];

const columns: ReadonlyArray<ResponsiveColumn<ModelRow>> = [
  {
    header: 'Model',
    primary: true,
    cell: (row) => <span className="font-mono text-xs break-words">{modelName(row)}</span>,
  },
  { header: 'Requests', numeric: true, cell: (row) => formatCount(row.total.requests) },
  { header: 'p50', numeric: true, cell: (row) => formatLatency(row.total.p50_ms) },
  { header: 'p95', numeric: true, cell: (row) => formatLatency(row.total.p95_ms) },
  { header: 'p99', numeric: true, cell: (row) => formatLatency(row.total.p99_ms) },
];

function LatencyView({
  latency,
  range,
  markers,
}: {
  latency: LlmLatency;
  range: string;
  markers?: ReactNode;
}) {
  const [percentile, setPercentile] = useState<Percentile>('p95_ms');
  const models = latency.models.filter((model) => model.total.requests > 0);
  return (
    <div className="space-y-4">
      <WindowPicker label="Percentile" value={percentile} options={PERCENTILES} onChange={setPercentile} />
      <Suspense fallback={<ChartFallback />}>
        <AfterPaint fallback={<ChartFallback />}>
          <TimeSeriesChart
            summary={latencySummary(latency, percentile, range)}
            rows={toLatencySeries(latency, percentile)}
            series={models.map((model) => ({ key: modelName(model), name: modelName(model) }))}
            domain={[Date.parse(latency.from), Date.parse(latency.to)]}
            interval={latency.interval}
            formatValue={formatLatency}
            formatTick={formatLatency}
            markers={markers}
          />
        </AfterPaint>
      </Suspense>
      <ResponsiveTable aria-label="Latency by model" columns={columns} rows={models} rowKey={modelName} />
    </div>
  );
}

interface LlmLatencyPanelProps {
  range: TimeRange;
  /** Passed to the chart: recharts elements drawn over its lines (change markers). */
  markers?: ReactNode;
}

/** p50/p95/p99 latency by provider and model over the chosen range, from the hourly histograms. */
export function LlmLatencyPanel({ range, markers }: LlmLatencyPanelProps) {
  const latency = useLlmLatency(range);
  const data = latency.data;
  const description = describeTimeRange(range);
  return (
    <MetricCard title={TITLE} description={describeHourlyRange(range, data)}>
      {latency.isPending && <PanelSkeleton label={TITLE} rows={2} chart />}
      {latency.isError && !data && (
        <PanelError message={panelErrorMessage(latency.error)} onRetry={() => void latency.refetch()} />
      )}
      {data && isLatencyEmpty(data) && <PanelEmpty>No LLM calls in this range.</PanelEmpty>}
      {data && !isLatencyEmpty(data) && <LatencyView latency={data} range={description} markers={markers} />}
    </MetricCard>
  );
}
