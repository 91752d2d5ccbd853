import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { CacheSum, ErrorSum, IntegrationSum, LlmUsageSum, RollupGrain } from './rollup-aggregation.js';

/**
 * The rollups: written by upserts in the ingest transaction (one row per key and batch, the batch
 * aggregated first), and pruned by retention; rollup-reads.repository.ts reads them. The hourly ones are the
 * only telemetry the dashboards read; their minute twins (kept two days) serve the alert rules' windows.
 * Rows arrive sorted by key, so concurrent batches on PostgreSQL lock rows in the same order and cannot
 * deadlock each other.
 */

/** Each grain's tables; the bucket column is named after the grain (`hour`, `minute`). */
export const ROLLUP_TABLES = {
  hour: {
    llm: 'llm_usage_hourly',
    integration: 'integration_hourly',
    cache: 'cache_hourly',
    error: 'error_hourly',
  },
  minute: {
    llm: 'llm_usage_minute',
    integration: 'integration_minute',
    cache: 'cache_minute',
    error: 'error_minute',
  },
} as const;

/**
 * The hourly and minute tables have the same columns but the bucket's, so one statement is written for
 * both with the table and bucket column named at run time; Kysely cannot type a table chosen so, hence
 * this untyped view (the column names below are checked by the tests on both databases).
 */
type UntypedRollups = Kysely<Record<string, Record<string, unknown>>>;

function untyped(db: Executor): UntypedRollups {
  return db as unknown as UntypedRollups;
}

function rowsOf<T extends { bucket: string }>(grain: RollupGrain, sums: T[]) {
  return sums.map(({ bucket, ...sum }) => ({ [grain]: bucket, ...sum }));
}

/** ON CONFLICT: the stored sum plus the batch's. */
function added(table: string, columns: readonly string[]): Record<string, RawBuilder<unknown>> {
  return Object.fromEntries(
    columns.map((column) => [
      column,
      sql`${sql.ref(`${table}.${column}`)} + ${sql.ref(`excluded.${column}`)}`,
    ]),
  );
}

/** ON CONFLICT: `column` of the batch where `newer` holds, else the stored one. */
function chosen(table: string, column: string, newer: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`case when ${newer} then ${sql.ref(`excluded.${column}`)} else ${sql.ref(`${table}.${column}`)} end`;
}

export async function upsertLlmUsage(db: Executor, grain: RollupGrain, sums: LlmUsageSum[]): Promise<void> {
  if (sums.length === 0) return;
  const table = ROLLUP_TABLES[grain].llm;
  const newer = sql`${sql.ref('excluded.last_call_at')} > ${sql.ref(`${table}.last_call_at`)}`;
  await untyped(db)
    .insertInto(table)
    .values(rowsOf(grain, sums))
    .onConflict((oc) =>
      oc.columns([grain, 'provider', 'model']).doUpdateSet({
        ...added(table, [
          'requests',
          'failed_requests',
          'cached_requests',
          'input_tokens',
          'output_tokens',
          'cost_usd',
          'latency_ms_total',
          'unpriced_requests',
        ]),
        last_call_at: chosen(table, 'last_call_at', newer),
      }),
    )
    .execute();
}

export async function upsertIntegrations(
  db: Executor,
  grain: RollupGrain,
  sums: IntegrationSum[],
): Promise<void> {
  if (sums.length === 0) return;
  const table = ROLLUP_TABLES[grain].integration;
  // Of two calls at the same time, the later in the batch sets the last status.
  const newer = sql`${sql.ref('excluded.last_call_at')} >= ${sql.ref(`${table}.last_call_at`)}`;
  await untyped(db)
    .insertInto(table)
    .values(rowsOf(grain, sums))
    .onConflict((oc) =>
      oc.columns([grain, 'service_name']).doUpdateSet({
        ...added(table, ['total_calls', 'success_count', 'error_count', 'latency_ms_total']),
        last_status: chosen(table, 'last_status', newer),
        last_call_at: chosen(table, 'last_call_at', newer),
      }),
    )
    .execute();
}

export async function upsertCache(db: Executor, grain: RollupGrain, sums: CacheSum[]): Promise<void> {
  if (sums.length === 0) return;
  const table = ROLLUP_TABLES[grain].cache;
  await untyped(db)
    .insertInto(table)
    .values(rowsOf(grain, sums))
    .onConflict((oc) =>
      oc
        .column(grain)
        .doUpdateSet(added(table, ['reports', 'hits', 'misses', 'cached_ms_total', 'uncached_ms_total'])),
    )
    .execute();
}

export async function upsertErrors(db: Executor, grain: RollupGrain, sums: ErrorSum[]): Promise<void> {
  if (sums.length === 0) return;
  const table = ROLLUP_TABLES[grain].error;
  await untyped(db)
    .insertInto(table)
    .values(rowsOf(grain, sums))
    .onConflict((oc) => oc.columns([grain, 'source']).doUpdateSet(added(table, ['errors'])))
    .execute();
}

/** Deletes the rollups of `grain` whose bucket starts before `before`; returns how many rows went. */
export async function pruneRollups(db: Executor, grain: RollupGrain, before: string): Promise<number> {
  let removed = 0;
  for (const table of Object.values(ROLLUP_TABLES[grain])) {
    const result = await untyped(db).deleteFrom(table).where(grain, '<', before).executeTakeFirst();
    removed += Number(result.numDeletedRows);
  }
  return removed;
}
