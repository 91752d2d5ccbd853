import {
  LATENCY_LIMITS,
  type IntegrationLatency,
  type LatencyFigures,
  type LatencyInterval,
  type LlmLatency,
} from '@lumi/contract';
import { ValidationError } from '../../lib/errors.js';
import { DAY_MS, HOUR_MS, hourKey } from '../../lib/hour-buckets.js';
import { quantiles } from '../../lib/latency-buckets.js';
import { roundTo } from '../../lib/llm-cost.js';
import type { Cached } from '../../lib/ttl-cache.js';
import { addDays, firstHourOfLocalDate, localDate } from '../../lib/zoned-days.js';
import {
  add,
  latencySeries,
  SEP,
  settledSplit,
  type LatencyKind,
  type LatencySeries,
  type SpanHistograms,
  type Spans,
} from '../telemetry-store/telemetry-store.js';
import { parseMetricsRange, type MetricsRange, type MetricsRangeRules } from './metrics-range.js';
import { DashboardService } from './dashboard-service.js';

/** `to` defaults to now and `from` to 24 hours before it. */
const RANGE_RULES: MetricsRangeRules = {
  defaultTo: 'now',
  defaultMs: DAY_MS,
  maxDays: LATENCY_LIMITS.maxDays,
  messages: {
    order: 'from must be before to',
    tooLong: `A range may span at most ${LATENCY_LIMITS.maxDays} days`,
  },
};
const PERCENTILES = [0.5, 0.95, 0.99] as const;

/** A request's range and the interval its answer is split by. */
type HourRange = MetricsRange & { interval: LatencyInterval };

function figures(histogram: Map<number, number>): LatencyFigures {
  let requests = 0;
  for (const count of histogram.values()) requests += count;
  const [p50, p95, p99] = quantiles(histogram, PERCENTILES).map((v) => (v === null ? null : roundTo(v, 3)));
  return { requests, p50_ms: p50 ?? null, p95_ms: p95 ?? null, p99_ms: p99 ?? null };
}

/**
 * Latency percentiles per provider and model, and per integration (docs/operators/metrics.md,
 * "Latency percentiles"), read from the hourly latency histograms alone, never from raw events: the database
 * merges an interval's hours by adding counts per bucket, the range's total adds the intervals', and
 * p50/p95/p99 are read from the merged histograms (lib/latency-buckets.ts: within 2 % of the exact
 * nearest-rank percentile). Intervals are UTC hours,
 * or days in LUMI_TIMEZONE mapped onto whole hours as the usage figures are (lib/zoned-days.ts); the first
 * and last interval hold only the hours of the range.
 */
export class LatencyService extends DashboardService {
  llmLatency(query: { from?: string; to?: string; interval: LatencyInterval }): Cached<LlmLatency> {
    const range = this.range(query);
    return this.answer(range, 'llm', async () => {
      const starts = this.intervalStarts(range);
      const series = await this.series('llm', starts, range);
      const models = series.map((entry) => ({
        provider: entry.key[0]!,
        model: entry.key[1]!,
        ...seriesFigures(starts, entry),
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
      const starts = this.intervalStarts(range);
      const series = await this.series('integrations', starts, range);
      const services = series.map((entry) => ({
        service_name: entry.key[0]!,
        ...seriesFigures(starts, entry),
      }));
      return { services };
    });
  }

  /**
   * Each key's figures per interval and over the range, from histograms read in two parts. The settled
   * hours (telemetry-store/settled-hours.ts) are read once and kept, with the figures of the intervals they
   * hold whole, in the history cache, which only a change reaching back before the current hour clears (a
   * late event, retention, a fold by the store's housekeeping); the hours after them, which every stored
   * batch changes, are read afresh, and only the intervals they touch and the range's total are worked out
   * again. So 7 days by hour cost a read of
   * two hours and the percentiles of two intervals while a bot reports, not those of 168.
   */
  private async series(kind: LatencyKind, starts: Starts, range: HourRange): Promise<Figured[]> {
    const split = settledSplit(range.first, range.end, this.now());
    const settledSpans = starts.filter((start) => start < split).length;
    const settled =
      settledSpans === 0
        ? []
        : await this.history.get(`latency:${kind}:${range.interval}:${range.first}:${split}`, async () =>
            (await latencySeries(this.db, kind, spansOf(starts.slice(0, settledSpans), hourKey(split)))).map(
              (entry) => withFigures(entry, starts),
            ),
          );
    if (split === range.end) return settled;
    // The interval the split falls in continues after it, under the same number.
    const continues = starts[settledSpans] !== split;
    const liveStarts = continues ? [split, ...starts.slice(settledSpans)] : starts.slice(settledSpans);
    const offset = continues ? settledSpans - 1 : settledSpans;
    const live = await latencySeries(this.db, kind, spansOf(liveStarts, range.to), offset);
    return merged(settled, live, starts);
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
    const range = parseMetricsRange(query, this.now(), RANGE_RULES);
    if (query.interval === 'hour' && range.toMs - range.fromMs > LATENCY_LIMITS.maxHourlyDays * DAY_MS) {
      throw ValidationError.field(
        'interval',
        `Hour by hour, a range may span at most ${LATENCY_LIMITS.maxHourlyDays} days; use interval=day`,
      );
    }
    return { ...range, interval: query.interval };
  }

  /** The start (ms) of every interval of the range, oldest first; the first is the range's first hour. */
  private intervalStarts(range: HourRange): Starts {
    if (range.interval === 'hour') {
      return withKeys(
        Array.from({ length: (range.end - range.first) / HOUR_MS }, (_, i) => range.first + i * HOUR_MS),
      );
    }
    const timezone = this.settings.timezone;
    // The day holding the first hour: the hour that straddles local midnight belongs to the new day.
    let date = localDate(range.first, timezone);
    if (firstHourOfLocalDate(addDays(date, 1), timezone) <= range.first) date = addDays(date, 1);
    const starts = [range.first];
    for (;;) {
      date = addDays(date, 1);
      const start = firstHourOfLocalDate(date, timezone);
      if (start >= range.end) return withKeys(starts);
      starts.push(start);
    }
  }
}

/** The intervals' starts (ms) and, beside them, as the answer names them. */
type Starts = number[] & { keys: string[] };

function withKeys(starts: number[]): Starts {
  return Object.assign(starts, { keys: starts.map((start) => new Date(start).toISOString()) });
}

type Point = LatencyFigures & { start: string };

/**
 * A key's histograms and their figures: per interval (by number), as the answer lists it, and over the
 * range. The settled part's points are made once and kept with it (so also frozen once, with the first
 * answer that holds them); an answer made afresh makes only its recent intervals' points.
 */
interface Figured {
  key: string[];
  histograms: SpanHistograms;
  total: LatencyFigures;
  points: Map<number, Point>;
}

const NO_CALLS: LatencyFigures = { requests: 0, p50_ms: null, p95_ms: null, p99_ms: null };

function seriesFigures(starts: Starts, { total, points }: Figured) {
  return {
    total,
    intervals: starts.keys.map((start, i) => points.get(i) ?? { start, ...NO_CALLS }),
  };
}

function withFigures({ key, histograms }: LatencySeries, starts: Starts): Figured {
  const points = new Map<number, Point>();
  for (const [span, histogram] of histograms.spans) {
    points.set(span, { start: starts.keys[span]!, ...figures(histogram) });
  }
  return { key, histograms, total: figures(histograms.total), points };
}

/**
 * The settled part's series with the recent part's added: an interval the recent hours touch, and the
 * total, are worked out from the summed histograms; the other intervals keep their figures. Neither part
 * is changed (the settled one is cached).
 */
function merged(settled: Figured[], live: LatencySeries[], starts: Starts): Figured[] {
  const byKey = new Map(settled.map((entry) => [entry.key.join(SEP), entry]));
  for (const { key, histograms } of live) {
    const name = key.join(SEP);
    const before = byKey.get(name);
    const spans = new Map(before?.histograms.spans);
    const points = new Map(before?.points);
    for (const [span, histogram] of histograms.spans) {
      const sum = new Map(spans.get(span));
      for (const [bucket, count] of histogram) add(sum, bucket, count);
      spans.set(span, sum);
      points.set(span, { start: starts.keys[span]!, ...figures(sum) });
    }
    const total = new Map(before?.histograms.total);
    for (const [bucket, count] of histograms.total) add(total, bucket, count);
    byKey.set(name, { key, histograms: { total, spans }, total: figures(total), points });
  }
  return [...byKey.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, entry]) => entry);
}

function spansOf(starts: number[], end: string): Spans {
  return { starts: starts.map((start) => new Date(start).toISOString()), end };
}
