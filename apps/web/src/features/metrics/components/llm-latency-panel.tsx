import type { LlmLatency } from '@lumi/contract';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { ResponsiveTable, type ResponsiveColumn } from '@/components/ui/responsive-table';
import { useLlmLatency } from '../api/get-llm-latency';
import { callsLink } from '../lib/call-filters';
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
import { modelCallsColumn, modelColumn } from './model-columns';
import { PanelEmpty, PanelError, PanelSkeleton } from './panel-states';
import { WindowPicker } from './window-picker';

const TimeSeriesChart = lazy(() =>
  import('./time-series-chart').then((m) => ({ default: m.TimeSeriesChart })),
);

const TITLE = 'Latency';

type ModelRow = LlmLatency['models'][number];

function columns(range: TimeRange): ReadonlyArray<ResponsiveColumn<ModelRow>> {
  return [
    modelColumn(),
    { header: 'Requests', numeric: true, cell: (row) => formatCount(row.total.requests) },
    { header: 'p50', numeric: true, cell: (row) => formatLatency(row.total.p50_ms) },
    { header: 'p95', numeric: true, cell: (row) => formatLatency(row.total.p95_ms) },
    { header: 'p99', numeric: true, cell: (row) => formatLatency(row.total.p99_ms) },
    modelCallsColumn(range),
  ];
}

const INTERVAL_MS = { hour: 3_600_000, day: 86_400_000 } as const;

function LatencyView({
  latency,
  range,
  description,
  markers,
}: {
  latency: LlmLatency;
  range: TimeRange;
  description: string;
  markers?: ReactNode;
}) {
  const [percentile, setPercentile] = useState<Percentile>('p95_ms');
  const navigate = useNavigate();
  const models = latency.models.filter((model) => model.total.requests > 0);
  const byName = new Map(models.map((model) => [modelName(model), model]));
  // A point is a model's interval: its calls are that model's over that hour or day.
  const openCalls = (name: string, time: number) => {
    const model = byName.get(name);
    if (!model) return;
    const to = Math.min(time + INTERVAL_MS[latency.interval], Date.parse(latency.to));
    void navigate(
      callsLink(
        { provider: model.provider, model: model.model },
        { kind: 'custom', from: new Date(time).toISOString(), to: new Date(to).toISOString() },
      ),
    );
  };
  return (
    <div className="space-y-4">
      <WindowPicker label="Percentile" value={percentile} options={PERCENTILES} onChange={setPercentile} />
      <Suspense fallback={<ChartFallback />}>
        <AfterPaint fallback={<ChartFallback />}>
          <TimeSeriesChart
            summary={latencySummary(latency, percentile, description)}
            rows={toLatencySeries(latency, percentile)}
            series={models.map((model) => ({ key: modelName(model), name: modelName(model) }))}
            domain={[Date.parse(latency.from), Date.parse(latency.to)]}
            interval={latency.interval}
            formatValue={formatLatency}
            formatTick={formatLatency}
            markers={markers}
            onPointClick={openCalls}
          />
        </AfterPaint>
      </Suspense>
      <ResponsiveTable
        aria-label="Latency by model"
        columns={columns(range)}
        rows={models}
        rowKey={modelName}
      />
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
      {data && !isLatencyEmpty(data) && (
        <LatencyView latency={data} range={range} description={description} markers={markers} />
      )}
    </MetricCard>
  );
}
