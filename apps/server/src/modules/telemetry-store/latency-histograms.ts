import { latencyBucket } from '../../lib/latency-buckets.js';
import type { RawRow } from './events.repository.js';
import { hourOfStored } from './llm-dimensions.js';

/**
 * The latency histograms of the hourly rollups (docs/operators/metrics.md, "Latency percentiles"), the part
 * without SQL: a batch of stored calls counted per hour, key and bucket (latency.repository.ts writes the
 * counts, folds finished hours and reads them back), the folded rows' packed counts, and the shapes the
 * latency endpoints read.
 */

/** The two kinds of histogram: LLM calls by provider and model, integration calls by service. */
export const LATENCY_KINDS = ['llm', 'integrations'] as const;
export type LatencyKind = (typeof LATENCY_KINDS)[number];

export interface LlmLatencyCount {
  hour: string;
  provider: string;
  model: string;
  bucket: number;
  count: number;
}

export interface IntegrationLatencyCount {
  hour: string;
  service_name: string;
  bucket: number;
  count: number;
}

/** A separator no provider, model or service name contains (they are validated, printable text). */
export const SEP = '\u0000';

function counted<T extends { count: number }>(rows: Iterable<{ key: string; make: () => T }>): T[] {
  const byKey = new Map<string, T>();
  for (const { key, make } of rows) {
    const found = byKey.get(key);
    if (found) found.count += 1;
    else byKey.set(key, make());
  }
  return [...byKey.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
}

/** Bucket indexes are written fixed-width into the sort key, so text order is (…, bucket) order. */
const bucketText = (bucket: number) => String(bucket + 100_000).padStart(6, '0');

export function countLlmLatencies(rows: RawRow<'llm_calls'>[]): LlmLatencyCount[] {
  return counted(
    rows.map((row) => {
      const hour = hourOfStored(row.ts);
      const bucket = latencyBucket(row.latency_ms);
      return {
        key: [hour, row.provider, row.model, bucketText(bucket)].join(SEP),
        make: () => ({ hour, provider: row.provider, model: row.model, bucket, count: 1 }),
      };
    }),
  );
}

export function countIntegrationLatencies(rows: RawRow<'integration_calls'>[]): IntegrationLatencyCount[] {
  return counted(
    rows.map((row) => {
      const hour = hourOfStored(row.ts);
      const bucket = latencyBucket(row.latency_ms);
      return {
        key: [hour, row.service_name, bucketText(bucket)].join(SEP),
        make: () => ({ hour, service_name: row.service_name, bucket, count: 1 }),
      };
    }),
  );
}

/** "bucket:count" pairs in bucket order. */
export function packCounts(histogram: Map<number, number>): string {
  return [...histogram.entries()]
    .filter(([, count]) => count !== 0)
    .sort(([a], [b]) => a - b)
    .map(([bucket, count]) => `${bucket}:${count}`)
    .join(',');
}

export function unpackCounts(counts: string, into = new Map<number, number>()): Map<number, number> {
  if (counts === '') return into;
  for (const pair of counts.split(',')) {
    const colon = pair.indexOf(':');
    const bucket = Number(pair.slice(0, colon));
    into.set(bucket, (into.get(bucket) ?? 0) + Number(pair.slice(colon + 1)));
  }
  return into;
}

/** A range cut into spans of whole hours: span i is [starts[i], starts[i + 1]), the last ending at `end`. */
export interface Spans {
  starts: string[];
  end: string;
}

/** A key's histograms: per span (by index) and over the whole range. */
export interface SpanHistograms {
  total: Map<number, number>;
  spans: Map<number, Map<number, number>>;
}

export const add = (histogram: Map<number, number>, bucket: number, count: number) =>
  histogram.set(bucket, (histogram.get(bucket) ?? 0) + count);

/** One key's histograms: the provider and model of an LLM series, or an integration's service name. */
export interface LatencySeries {
  key: string[];
  histograms: SpanHistograms;
}
