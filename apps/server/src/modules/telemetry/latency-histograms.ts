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

// Reads. Windows are [from, to) in hour keys; counts come back as strings from PostgreSQL, hence Number().

export async function llmLatencies(db: Executor, from: string, to: string): Promise<LlmLatencyCount[]> {
  const rows = await db
    .selectFrom('llm_latency_hourly')
    .select(['hour', 'provider', 'model', 'bucket', 'count'])
    .where('hour', '>=', from)
    .where('hour', '<', to)
    .execute();
  return rows.map((r) => ({ ...r, bucket: Number(r.bucket), count: Number(r.count) }));
}

export async function integrationLatencies(
  db: Executor,
  from: string,
  to: string,
): Promise<IntegrationLatencyCount[]> {
  const rows = await db
    .selectFrom('integration_latency_hourly')
    .select(['hour', 'service_name', 'bucket', 'count'])
    .where('hour', '>=', from)
    .where('hour', '<', to)
    .execute();
  return rows.map((r) => ({ ...r, bucket: Number(r.bucket), count: Number(r.count) }));
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
