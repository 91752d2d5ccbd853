import { sql, type Insertable, type Kysely, type RawBuilder } from 'kysely';
import type {
  CacheHourlyTable,
  ErrorHourlyTable,
  IntegrationHourlyTable,
  LlmUsageHourlyTable,
} from '../../db/telemetry-tables.js';
import type { Executor } from '../../db/database.js';
import type { RollupGrain } from './rollup-aggregation.js';

/**
 * The rollups: written by upserts in the ingest transaction (one row per key and batch, the batch
 * aggregated first). The hourly ones are the only telemetry the dashboards read; their minute twins (kept
 * two days) serve the alert rules' windows. Rows arrive sorted by key, so concurrent batches on PostgreSQL
 * lock rows in the same order and cannot deadlock each other.
 */

/** A batch's sums for one bucket (an hour or a minute, named by its start) and key. */
type Sum<T extends { hour: string }> = Omit<Insertable<T>, 'hour'> & { bucket: string };
export type LlmUsageSum = Sum<LlmUsageHourlyTable>;
export type IntegrationSum = Sum<IntegrationHourlyTable>;
export type CacheSum = Sum<CacheHourlyTable>;
export type ErrorSum = Sum<ErrorHourlyTable>;

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

// Reads. Windows are [from, to) in hour keys; sums come back as strings from PostgreSQL, hence Number().

/** Requests, tokens and cost per hour and provider. */
export async function llmUsageByHourAndProvider(db: Executor, from: string, to: string) {
  const rows = await db
    .selectFrom('llm_usage_hourly')
    .select((eb) => [
      'hour',
      'provider',
      eb.fn.sum<number | string>('requests').as('requests'),
      eb.fn.sum<number | string>(eb('input_tokens', '+', eb.ref('output_tokens'))).as('tokens'),
      eb.fn.sum<number | string>('cost_usd').as('cost'),
    ])
    .where('hour', '>=', from)
    .where('hour', '<', to)
    .groupBy(['hour', 'provider'])
    .execute();
  return rows.map((r) => ({
    hour: r.hour,
    provider: r.provider,
    requests: Number(r.requests),
    tokens: Number(r.tokens),
    cost: Number(r.cost),
  }));
}

/**
 * Gemini calls per hour and model. What counts as Gemini (docs/operators/metrics.md): provider 'gemini', or a model
 * whose name starts with 'gemini' (as Google and Vertex AI name them), both without regard to case.
 */
export async function geminiUsageByHourAndModel(db: Executor, from: string, to: string) {
  const rows = await db
    .selectFrom('llm_usage_hourly')
    .select((eb) => [
      'hour',
      'model',
      eb.fn.sum<number | string>('requests').as('requests'),
      eb.fn.sum<number | string>(eb('input_tokens', '+', eb.ref('output_tokens'))).as('tokens'),
      eb.fn.sum<number | string>('cost_usd').as('cost'),
      eb.fn.max('last_call_at').as('last_call_at'),
    ])
    .where('hour', '>=', from)
    .where('hour', '<', to)
    .where((eb) =>
      eb.or([
        eb(eb.fn('lower', ['provider']), '=', 'gemini'),
        eb(eb.fn('lower', ['model']), 'like', 'gemini%'),
      ]),
    )
    .groupBy(['hour', 'model'])
    .execute();
  return rows.map((r) => ({
    hour: r.hour,
    model: r.model,
    requests: Number(r.requests),
    tokens: Number(r.tokens),
    cost: Number(r.cost),
    lastCallAt: r.last_call_at,
  }));
}

/** Tokens and cost per provider in a window, for the budgets. */
export async function usageByProvider(db: Executor, from: string, to: string, providers: string[]) {
  if (providers.length === 0) return [];
  const rows = await db
    .selectFrom('llm_usage_hourly')
    .select((eb) => [
      'provider',
      eb.fn.sum<number | string>(eb('input_tokens', '+', eb.ref('output_tokens'))).as('tokens'),
      eb.fn.sum<number | string>('cost_usd').as('cost'),
    ])
    .where('hour', '>=', from)
    .where('hour', '<', to)
    .where('provider', 'in', providers)
    .groupBy('provider')
    .execute();
  return rows.map((r) => ({ provider: r.provider, tokens: Number(r.tokens), cost: Number(r.cost) }));
}

export async function cacheTotals(db: Executor, from: string, to: string) {
  const row = await db
    .selectFrom('cache_hourly')
    .select((eb) => [
      eb.fn.sum<number | string>('reports').as('reports'),
      eb.fn.sum<number | string>('hits').as('hits'),
      eb.fn.sum<number | string>('misses').as('misses'),
      eb.fn.sum<number | string>('cached_ms_total').as('cached_ms_total'),
      eb.fn.sum<number | string>('uncached_ms_total').as('uncached_ms_total'),
    ])
    .where('hour', '>=', from)
    .where('hour', '<', to)
    .executeTakeFirstOrThrow();
  // SUM over no rows is NULL: Number(null) is 0.
  return {
    reports: Number(row.reports),
    hits: Number(row.hits),
    misses: Number(row.misses),
    cachedMsTotal: Number(row.cached_ms_total),
    uncachedMsTotal: Number(row.uncached_ms_total),
  };
}

export async function errorCount(db: Executor, from: string, to: string): Promise<number> {
  const row = await db
    .selectFrom('error_hourly')
    .select((eb) => eb.fn.sum<number | string>('errors').as('errors'))
    .where('hour', '>=', from)
    .where('hour', '<', to)
    .executeTakeFirstOrThrow();
  return Number(row.errors);
}

export async function integrationRows(db: Executor, from: string, to: string) {
  const rows = await db
    .selectFrom('integration_hourly')
    .select(['service_name', 'total_calls', 'success_count', 'error_count', 'last_call_at', 'last_status'])
    .where('hour', '>=', from)
    .where('hour', '<', to)
    .execute();
  return rows.map((r) => ({
    serviceName: r.service_name,
    total: Number(r.total_calls),
    success: Number(r.success_count),
    error: Number(r.error_count),
    lastCallAt: r.last_call_at,
    lastStatus: r.last_status,
  }));
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
