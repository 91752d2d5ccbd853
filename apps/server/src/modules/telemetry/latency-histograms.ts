import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { hourKey } from '../../lib/hour-buckets.js';
import { latencyBucket } from '../../lib/latency-buckets.js';
import type { RawRow } from './telemetry.repository.js';

/**
 * The latency histograms of the hourly rollups (issue 17, "Dimensions and percentiles"): a batch of stored
 * calls is counted per hour, key and bucket first, so the ingest transaction writes each row once, in key
 * order (concurrent batches on PostgreSQL then lock rows in the same order, as the other rollups do).
 * Pruned with the hourly rollups; read only by the latency endpoints.
 */

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
const SEP = '\u0000';

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
      const hour = hourKey(Date.parse(row.ts));
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
      const hour = hourKey(Date.parse(row.ts));
      const bucket = latencyBucket(row.latency_ms);
      return {
        key: [hour, row.service_name, bucketText(bucket)].join(SEP),
        make: () => ({ hour, service_name: row.service_name, bucket, count: 1 }),
      };
    }),
  );
}

/** ON CONFLICT: the stored count plus the batch's. */
const addedCount = (table: string) =>
  sql<number>`${sql.ref(`${table}.count`)} + ${sql.ref('excluded.count')}`;

/** Writes a batch's stored calls into the histograms; one statement per table. */
export async function upsertLatencies(
  db: Executor,
  llm: RawRow<'llm_calls'>[],
  integrations: RawRow<'integration_calls'>[],
): Promise<void> {
  const llmCounts = countLlmLatencies(llm);
  if (llmCounts.length > 0) {
    await db
      .insertInto('llm_latency_hourly')
      .values(llmCounts)
      .onConflict((oc) =>
        oc
          .columns(['hour', 'provider', 'model', 'bucket'])
          .doUpdateSet({ count: addedCount('llm_latency_hourly') }),
      )
      .execute();
  }
  const integrationCounts = countIntegrationLatencies(integrations);
  if (integrationCounts.length > 0) {
    await db
      .insertInto('integration_latency_hourly')
      .values(integrationCounts)
      .onConflict((oc) =>
        oc
          .columns(['hour', 'service_name', 'bucket'])
          .doUpdateSet({ count: addedCount('integration_latency_hourly') }),
      )
      .execute();
  }
}

// Reads. Counts come back as strings from PostgreSQL, hence Number().

/** A range cut into spans of whole hours: span i is [starts[i], starts[i + 1]), the last ending at `end`. */
export interface Spans {
  starts: string[];
  end: string;
}

/**
 * One row per span, key and bucket with the span's count, summed by the database: the spans are a
 * VALUES list joined to the table by hour, so each span is one range scan of the primary key and only the
 * merged histograms leave the database.
 */
async function countsBySpan<K extends 'provider, model' | 'service_name'>(
  db: Executor,
  table: 'llm_latency_hourly' | 'integration_latency_hourly',
  keys: K,
  { starts, end }: Spans,
) {
  const values = starts.map(
    (start, i) => sql`(${sql.lit(i)}, cast(${start} as text), cast(${starts[i + 1] ?? end} as text))`,
  );
  const columns = sql.raw(
    keys
      .split(', ')
      .map((k) => `l.${k}`)
      .join(', '),
  );
  const { rows } = await sql<Record<string, string | number>>`
    with spans (i, span_start, span_end) as (values ${sql.join(values)})
    select spans.i as span, ${columns}, l.bucket, sum(l.count) as count
    from spans join ${sql.table(table)} l on l.hour >= spans.span_start and l.hour < spans.span_end
    group by spans.i, ${columns}, l.bucket`.execute(db);
  return rows;
}

export async function llmLatencies(db: Executor, spans: Spans) {
  const rows = await countsBySpan(db, 'llm_latency_hourly', 'provider, model', spans);
  return rows.map((r) => ({
    span: Number(r.span),
    key: [String(r.provider), String(r.model)] as const,
    bucket: Number(r.bucket),
    count: Number(r.count),
  }));
}

export async function integrationLatencies(db: Executor, spans: Spans) {
  const rows = await countsBySpan(db, 'integration_latency_hourly', 'service_name', spans);
  return rows.map((r) => ({
    span: Number(r.span),
    key: [String(r.service_name)] as const,
    bucket: Number(r.bucket),
    count: Number(r.count),
  }));
}

/** Deletes the histogram rows of hours before `before`; returns how many rows went. */
export async function pruneLatencies(db: Executor, before: string): Promise<number> {
  let removed = 0;
  for (const table of ['llm_latency_hourly', 'integration_latency_hourly'] as const) {
    const result = await db.deleteFrom(table).where('hour', '<', before).executeTakeFirst();
    removed += Number(result.numDeletedRows);
  }
  return removed;
}
