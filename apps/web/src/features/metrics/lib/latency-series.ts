import type { LatencyFigures, LlmLatency } from '@lumi/contract';
import { numberFormat } from '@/lib/intl';

export const PERCENTILES = [
  { value: 'p50_ms', label: 'p50' },
  { value: 'p95_ms', label: 'p95' },
  { value: 'p99_ms', label: 'p99' },
] as const;
export type Percentile = (typeof PERCENTILES)[number]['value'];

/** One point in time of a chart: `t` in ms, and each series' value (null where it has none). */
export interface TimeSeriesRow {
  t: number;
  values: Record<string, number | null>;
}

/** A model's name on the latency panel: "provider / model". */
export const modelName = (row: { provider: string; model: string }) => `${row.provider} / ${row.model}`;

/** True when no model had a call in the range. */
export function isLatencyEmpty(latency: LlmLatency): boolean {
  return latency.models.every((model) => model.total.requests === 0);
}

/** The chosen percentile of each model per interval, oldest first: one row per interval start. */
export function toLatencySeries(latency: LlmLatency, percentile: Percentile): TimeSeriesRow[] {
  const rows = new Map<number, TimeSeriesRow>();
  for (const model of latency.models) {
    const key = modelName(model);
    for (const interval of model.intervals) {
      const t = Date.parse(interval.start);
      const row = rows.get(t) ?? { t, values: {} };
      row.values[key] = interval[percentile];
      rows.set(t, row);
    }
  }
  return [...rows.values()].sort((a, b) => a.t - b.t);
}

const ms = numberFormat(undefined, { maximumFractionDigits: 0 });
const seconds = numberFormat(undefined, { maximumFractionDigits: 2 });

/** A latency in words: 850 ms, 1.25 s; a dash where there were no calls. */
export function formatLatency(value: LatencyFigures['p50_ms']): string {
  if (value === null) return '—';
  return value < 1000 ? `${ms.format(value)} ms` : `${seconds.format(value / 1000)} s`;
}

/** The chart's summary for screen readers: each model's percentile over the whole range. */
export function latencySummary(latency: LlmLatency, percentile: Percentile, range: string): string {
  const label = PERCENTILES.find((option) => option.value === percentile)!.label;
  const models = latency.models
    .filter((model) => model.total.requests > 0)
    .map((model) => `${modelName(model)} ${formatLatency(model.total[percentile])}`);
  return `${label} latency per ${latency.interval} by model (${range}): ${models.join(', ')}`;
}
