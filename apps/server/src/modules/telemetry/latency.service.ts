import {
  LATENCY_LIMITS,
  type IntegrationLatency,
  type LatencyFigures,
  type LatencyInterval,
  type LlmLatency,
} from '@lumi/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { ValidationError } from '../../lib/errors.js';
import { DAY_MS, floorHour, HOUR_MS, hourKey } from '../../lib/hour-buckets.js';
import { mergeInto, quantiles } from '../../lib/latency-buckets.js';
import { roundTo } from '../../lib/llm-cost.js';
import type { Clock } from '../../lib/time.js';
import type { Cached, TtlCache } from '../../lib/ttl-cache.js';
import { addDays, firstHourOfLocalDate, localDate } from '../../lib/zoned-days.js';
import { integrationLatencies, llmLatencies } from './latency-histograms.js';
import type { TelemetrySettings } from './telemetry.settings.js';

const DEFAULT_RANGE_MS = DAY_MS;
const PERCENTILES = [0.5, 0.95, 0.99] as const;

/** A request's range as the whole hours it touches: from `first` up to (not including) `end`. */
interface HourRange {
  from: string;
  to: string;
  first: number;
  end: number;
  interval: LatencyInterval;
}

/** A key's histograms: per interval (by index) and over the whole range. */
interface Series {
  total: Map<number, number>;
  intervals: Map<number, Map<number, number>>;
}

function figures(histogram: Map<number, number> | undefined): LatencyFigures {
  if (!histogram) return { requests: 0, p50_ms: null, p95_ms: null, p99_ms: null };
  let requests = 0;
  for (const count of histogram.values()) requests += count;
  const [p50, p95, p99] = quantiles(histogram, PERCENTILES).map((v) => (v === null ? null : roundTo(v, 3)));
  return { requests, p50_ms: p50 ?? null, p95_ms: p95 ?? null, p99_ms: p99 ?? null };
}

/**
 * Latency percentiles per provider and model, and per integration (issue 17, "Dimensions and
 * percentiles"), read from the hourly latency histograms alone, never from raw events: the histograms of
 * an interval's hours are merged by adding counts per bucket, then p50/p95/p99 are read from the merged
 * one (lib/latency-buckets.ts: within 2 % of the exact nearest-rank percentile). Intervals are UTC hours,
 * or days in LUMI_TIMEZONE mapped onto whole hours as the usage figures are (lib/zoned-days.ts); the first
 * and last interval hold only the hours of the range.
 */
export class LatencyService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: Clock,
    private readonly settings: TelemetrySettings,
    private readonly cache: TtlCache,
  ) {}

  llmLatency(query: { from?: string; to?: string; interval: LatencyInterval }): Cached<LlmLatency> {
    const range = this.range(query);
    return this.answer(range, 'llm', async () => {
      const rows = await llmLatencies(this.db, range.from, range.to);
      const { starts, series } = this.collect(
        range,
        rows.map((r) => ({ key: [r.provider, r.model] as const, ...r })),
      );
      const models = [...series.entries()].map(([, { key, histograms }]) => ({
        provider: key[0],
        model: key[1],
        ...this.seriesFigures(starts, histograms),
      }));
      return { models };
    });
  }

  integrationLatency(query: {
    from?: string;
    to?: string;
    interval: LatencyInterval;
  }): Cached<IntegrationLatency> {
    const range = this.range(query);
    return this.answer(range, 'integrations', async () => {
      const rows = await integrationLatencies(this.db, range.from, range.to);
      const { starts, series } = this.collect(
        range,
        rows.map((r) => ({ key: [r.service_name] as const, ...r })),
      );
      const services = [...series.entries()].map(([, { key, histograms }]) => ({
        service_name: key[0],
        ...this.seriesFigures(starts, histograms),
      }));
      return { services };
    });
  }

  /** The answer for a range, cached by its hours and interval (cleared when telemetry is stored). */
  private answer<T extends object>(
    range: HourRange,
    kind: string,
    compute: () => Promise<T>,
  ): Cached<T & { from: string; to: string; interval: LatencyInterval }> {
    return this.cache.get(`latency:${kind}:${range.interval}:${range.from}:${range.to}`, async () => ({
      from: range.from,
      to: range.to,
      interval: range.interval,
      ...(await compute()),
    }));
  }

  /** Checks the range; a client's mistake is a 422 naming the parameter. */
  private range(query: { from?: string; to?: string; interval: LatencyInterval }): HourRange {
    const to = query.to === undefined ? this.now() : Date.parse(query.to);
    const from = query.from === undefined ? to - DEFAULT_RANGE_MS : Date.parse(query.from);
    if (from >= to) throw ValidationError.field('from', 'from must be before to');
    if (to - from > LATENCY_LIMITS.maxDays * DAY_MS) {
      throw ValidationError.field('from', `A range may span at most ${LATENCY_LIMITS.maxDays} days`);
    }
    if (query.interval === 'hour' && to - from > LATENCY_LIMITS.maxHourlyDays * DAY_MS) {
      throw ValidationError.field(
        'interval',
        `Hour by hour, a range may span at most ${LATENCY_LIMITS.maxHourlyDays} days; use interval=day`,
      );
    }
    const first = floorHour(from);
    const end = floorHour(to - 1) + HOUR_MS;
    return { from: hourKey(first), to: hourKey(end), first, end, interval: query.interval };
  }

  /** The start (ms) of every interval of the range, oldest first; the first is the range's first hour. */
  private intervalStarts(range: HourRange): number[] {
    if (range.interval === 'hour') {
      return Array.from({ length: (range.end - range.first) / HOUR_MS }, (_, i) => range.first + i * HOUR_MS);
    }
    const timezone = this.settings.timezone;
    // The day holding the first hour: the hour that straddles local midnight belongs to the new day.
    let date = localDate(range.first, timezone);
    if (firstHourOfLocalDate(addDays(date, 1), timezone) <= range.first) date = addDays(date, 1);
    const starts = [range.first];
    for (;;) {
      date = addDays(date, 1);
      const start = firstHourOfLocalDate(date, timezone);
      if (start >= range.end) return starts;
      starts.push(start);
    }
  }

  /** Merges the rows into one histogram per key and interval, and per key over the range. */
  private collect<K extends readonly string[]>(
    range: HourRange,
    rows: { key: K; hour: string; bucket: number; count: number }[],
  ) {
    const starts = this.intervalStarts(range);
    const indexOfHour = new Map<string, number>();
    const series = new Map<string, { key: K; histograms: Series }>();
    for (const row of rows) {
      let index = indexOfHour.get(row.hour);
      if (index === undefined) {
        index = intervalIndex(starts, Date.parse(row.hour));
        indexOfHour.set(row.hour, index);
      }
      const name = row.key.join('\u0000');
      let entry = series.get(name);
      if (!entry) {
        entry = { key: row.key, histograms: { total: new Map(), intervals: new Map() } };
        series.set(name, entry);
      }
      const pair = [[row.bucket, row.count] as const];
      mergeInto(entry.histograms.total, pair);
      let interval = entry.histograms.intervals.get(index);
      if (!interval) {
        interval = new Map();
        entry.histograms.intervals.set(index, interval);
      }
      mergeInto(interval, pair);
    }
    const sorted = new Map([...series.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    return { starts, series: sorted };
  }

  private seriesFigures(starts: number[], histograms: Series) {
    return {
      total: figures(histograms.total),
      intervals: starts.map((start, i) => ({
        start: new Date(start).toISOString(),
        ...figures(histograms.intervals.get(i)),
      })),
    };
  }
}

/** The index of the interval holding hour `ms`: the last whose start is not after it. */
function intervalIndex(starts: number[], ms: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (starts[mid]! <= ms) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
