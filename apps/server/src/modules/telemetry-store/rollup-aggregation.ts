import type { Insertable } from 'kysely';
import type {
  CacheHourlyTable,
  ErrorHourlyTable,
  IntegrationHourlyTable,
  LlmUsageHourlyTable,
} from '../../db/telemetry-tables.js';
import { hourKey, minuteKey } from '../../lib/hour-buckets.js';
import type { RawRow } from './events.repository.js';

/**
 * Sums a batch of stored events into one row per rollup key, so the ingest transaction writes each key
 * once (one upsert per rollup key, not per event). Rows come back sorted by key: concurrent batches then
 * lock rollup rows in the same order. The same sums go to the hourly rollups (the dashboards) and to their
 * minute twins (the alert rules' windows); `grain` names the bucket.
 */

export type RollupGrain = 'hour' | 'minute';

/** A batch's sums for one bucket (an hour or a minute, named by its start) and key. */
type Sum<T extends { hour: string }> = Omit<Insertable<T>, 'hour'> & { bucket: string };
export type LlmUsageSum = Omit<Sum<LlmUsageHourlyTable>, 'unpriced_requests'> & { unpriced_requests: number };
export type IntegrationSum = Sum<IntegrationHourlyTable>;
export type CacheSum = Sum<CacheHourlyTable>;
export type ErrorSum = Sum<ErrorHourlyTable>;

const bucketKeys: Record<RollupGrain, (ms: number) => string> = { hour: hourKey, minute: minuteKey };

function bucketOf(ts: string, grain: RollupGrain): string {
  return bucketKeys[grain](Date.parse(ts));
}

/** A map's values in key order: the order rollup rows are upserted in, so concurrent writers lock alike. */
export function sortedValues<T>(map: Map<string, T>): T[] {
  return [...map.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
}

/** A separator no provider, model or service name contains (they are validated, printable text). */
const SEP = '\u0000';

export function aggregateLlmCalls(rows: RawRow<'llm_calls'>[], grain: RollupGrain): LlmUsageSum[] {
  const byKey = new Map<string, LlmUsageSum>();
  for (const row of rows) {
    const bucket = bucketOf(row.ts, grain);
    const key = [bucket, row.provider, row.model].join(SEP);
    let sum = byKey.get(key);
    if (!sum) {
      sum = {
        bucket,
        provider: row.provider,
        model: row.model,
        requests: 0,
        failed_requests: 0,
        cached_requests: 0,
        input_tokens: 0,
        output_tokens: 0,
        cost_usd: 0,
        latency_ms_total: 0,
        last_call_at: row.ts,
        unpriced_requests: 0,
      };
      byKey.set(key, sum);
    }
    sum.requests += 1;
    sum.unpriced_requests += row.unpriced ? 1 : 0;
    sum.failed_requests += row.success ? 0 : 1;
    sum.cached_requests += row.cached ? 1 : 0;
    sum.input_tokens += row.input_tokens;
    sum.output_tokens += row.output_tokens;
    sum.cost_usd += row.cost_usd;
    sum.latency_ms_total += row.latency_ms;
    if (row.ts > sum.last_call_at) sum.last_call_at = row.ts;
  }
  return sortedValues(byKey);
}

export function aggregateIntegrationCalls(
  rows: RawRow<'integration_calls'>[],
  grain: RollupGrain,
): IntegrationSum[] {
  const byKey = new Map<string, IntegrationSum>();
  for (const row of rows) {
    const bucket = bucketOf(row.ts, grain);
    const key = [bucket, row.service_name].join(SEP);
    let sum = byKey.get(key);
    if (!sum) {
      sum = {
        bucket,
        service_name: row.service_name,
        total_calls: 0,
        success_count: 0,
        error_count: 0,
        latency_ms_total: 0,
        last_call_at: row.ts,
        last_status: row.status,
      };
      byKey.set(key, sum);
    }
    sum.total_calls += 1;
    sum.success_count += row.status === 'success' ? 1 : 0;
    sum.error_count += row.status === 'error' ? 1 : 0;
    sum.latency_ms_total += row.latency_ms;
    // The later call sets the last status; of two at the same time, the later in the batch.
    if (row.ts >= sum.last_call_at) {
      sum.last_call_at = row.ts;
      sum.last_status = row.status;
    }
  }
  return sortedValues(byKey);
}

/** Averages are weighted by the hits (misses) they describe, so the window's averages stay exact. */
export function aggregateCacheReports(rows: RawRow<'cache_reports'>[], grain: RollupGrain): CacheSum[] {
  const byKey = new Map<string, CacheSum>();
  for (const row of rows) {
    const bucket = bucketOf(row.ts, grain);
    let sum = byKey.get(bucket);
    if (!sum) {
      sum = { bucket, reports: 0, hits: 0, misses: 0, cached_ms_total: 0, uncached_ms_total: 0 };
      byKey.set(bucket, sum);
    }
    sum.reports += 1;
    sum.hits += row.hits;
    sum.misses += row.misses;
    sum.cached_ms_total += row.avg_response_time_cached_ms * row.hits;
    sum.uncached_ms_total += row.avg_response_time_uncached_ms * row.misses;
  }
  return sortedValues(byKey);
}

export function aggregateErrors(rows: RawRow<'bot_errors'>[], grain: RollupGrain): ErrorSum[] {
  const byKey = new Map<string, ErrorSum>();
  for (const row of rows) {
    const bucket = bucketOf(row.ts, grain);
    const key = [bucket, row.source].join(SEP);
    const sum = byKey.get(key) ?? { bucket, source: row.source, errors: 0 };
    sum.errors += 1;
    byKey.set(key, sum);
  }
  return sortedValues(byKey);
}
