import type { Insertable } from 'kysely';
import type {
  CacheHourlyTable,
  ErrorHourlyTable,
  IntegrationHourlyTable,
  LlmUsageHourlyTable,
} from '../../db/telemetry-tables.js';
import type { Executor } from '../../db/database.js';

/**
 * The hourly rollups: written by upserts in the ingest transaction (one row per key and batch, the batch
 * aggregated first) and the only telemetry the dashboards read. Rows arrive sorted by key, so concurrent
 * batches on PostgreSQL lock rows in the same order and cannot deadlock each other.
 */

export type LlmUsageRow = Insertable<LlmUsageHourlyTable>;
export type IntegrationRow = Insertable<IntegrationHourlyTable>;
export type CacheRow = Insertable<CacheHourlyTable>;
export type ErrorRow = Insertable<ErrorHourlyTable>;

export async function upsertLlmUsage(db: Executor, rows: LlmUsageRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('llm_usage_hourly')
    .values(rows)
    .onConflict((oc) =>
      oc.columns(['hour', 'provider', 'model']).doUpdateSet((eb) => ({
        requests: eb('llm_usage_hourly.requests', '+', eb.ref('excluded.requests')),
        failed_requests: eb('llm_usage_hourly.failed_requests', '+', eb.ref('excluded.failed_requests')),
        cached_requests: eb('llm_usage_hourly.cached_requests', '+', eb.ref('excluded.cached_requests')),
        input_tokens: eb('llm_usage_hourly.input_tokens', '+', eb.ref('excluded.input_tokens')),
        output_tokens: eb('llm_usage_hourly.output_tokens', '+', eb.ref('excluded.output_tokens')),
        cost_usd: eb('llm_usage_hourly.cost_usd', '+', eb.ref('excluded.cost_usd')),
        latency_ms_total: eb('llm_usage_hourly.latency_ms_total', '+', eb.ref('excluded.latency_ms_total')),
        last_call_at: eb
          .case()
          .when('excluded.last_call_at', '>', eb.ref('llm_usage_hourly.last_call_at'))
          .then(eb.ref('excluded.last_call_at'))
          .else(eb.ref('llm_usage_hourly.last_call_at'))
          .end(),
      })),
    )
    .execute();
}

export async function upsertIntegrations(db: Executor, rows: IntegrationRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('integration_hourly')
    .values(rows)
    .onConflict((oc) =>
      oc.columns(['hour', 'service_name']).doUpdateSet((eb) => {
        const newer = eb('excluded.last_call_at', '>=', eb.ref('integration_hourly.last_call_at'));
        return {
          total_calls: eb('integration_hourly.total_calls', '+', eb.ref('excluded.total_calls')),
          success_count: eb('integration_hourly.success_count', '+', eb.ref('excluded.success_count')),
          error_count: eb('integration_hourly.error_count', '+', eb.ref('excluded.error_count')),
          latency_ms_total: eb(
            'integration_hourly.latency_ms_total',
            '+',
            eb.ref('excluded.latency_ms_total'),
          ),
          last_status: eb
            .case()
            .when(newer)
            .then(eb.ref('excluded.last_status'))
            .else(eb.ref('integration_hourly.last_status'))
            .end(),
          last_call_at: eb
            .case()
            .when(newer)
            .then(eb.ref('excluded.last_call_at'))
            .else(eb.ref('integration_hourly.last_call_at'))
            .end(),
        };
      }),
    )
    .execute();
}

export async function upsertCache(db: Executor, rows: CacheRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('cache_hourly')
    .values(rows)
    .onConflict((oc) =>
      oc.column('hour').doUpdateSet((eb) => ({
        reports: eb('cache_hourly.reports', '+', eb.ref('excluded.reports')),
        hits: eb('cache_hourly.hits', '+', eb.ref('excluded.hits')),
        misses: eb('cache_hourly.misses', '+', eb.ref('excluded.misses')),
        cached_ms_total: eb('cache_hourly.cached_ms_total', '+', eb.ref('excluded.cached_ms_total')),
        uncached_ms_total: eb('cache_hourly.uncached_ms_total', '+', eb.ref('excluded.uncached_ms_total')),
      })),
    )
    .execute();
}

export async function upsertErrors(db: Executor, rows: ErrorRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('error_hourly')
    .values(rows)
    .onConflict((oc) =>
      oc.columns(['hour', 'source']).doUpdateSet((eb) => ({
        errors: eb('error_hourly.errors', '+', eb.ref('excluded.errors')),
      })),
    )
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
 * Gemini calls per hour and model. What counts as Gemini (README, Metrics): provider 'gemini', or a model
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

export async function pruneRollups(db: Executor, before: string): Promise<number> {
  let removed = 0;
  for (const table of ['llm_usage_hourly', 'integration_hourly', 'cache_hourly', 'error_hourly'] as const) {
    const result = await db.deleteFrom(table).where('hour', '<', before).executeTakeFirst();
    removed += Number(result.numDeletedRows);
  }
  return removed;
}
