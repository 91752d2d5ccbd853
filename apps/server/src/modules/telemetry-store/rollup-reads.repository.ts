import type { Executor } from '../../db/database.js';

/**
 * The reads of the rollups (rollups.repository.ts writes them): the hourly ones for the dashboards and the
 * budgets, the minute ones for the alert rules' windows. Windows are [from, to) in bucket keys; sums come
 * back as strings from PostgreSQL (and SUM of no rows as NULL), hence Number().
 */

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
      eb.fn.sum<number | string>('unpriced_requests').as('unpriced'),
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
    unpriced: Number(r.unpriced),
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

/** The provider and model names of the calls in a window, with how many of them Lumi could not price. */
export async function modelsSeen(db: Executor, from: string) {
  const rows = await db
    .selectFrom('llm_usage_hourly')
    .select((eb) => ['provider', 'model', eb.fn.sum<number | string>('unpriced_requests').as('unpriced')])
    .where('hour', '>=', from)
    .groupBy(['provider', 'model'])
    .execute();
  return rows.map((r) => ({ provider: r.provider, model: r.model, unpriced: Number(r.unpriced) }));
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

// The alert rules' reads: sums by key over [from, to) of the minute rollups (the hourly ones for "today").

/** LLM sums per provider and model over [from, to) of the minute or the hourly rollups. */
export async function llmSumsByModel(db: Executor, grain: 'minute' | 'hour', from: string, to: string) {
  const table = grain === 'minute' ? 'llm_usage_minute' : 'llm_usage_hourly';
  const rows = await db
    .selectFrom(table)
    .select((eb) => [
      'provider',
      'model',
      eb.fn.sum<number | string>('requests').as('requests'),
      eb.fn.sum<number | string>('failed_requests').as('failed'),
      eb.fn.sum<number | string>('cost_usd').as('cost'),
      eb.fn.sum<number | string>('latency_ms_total').as('latency'),
      eb.fn.sum<number | string>(eb('input_tokens', '+', eb.ref('output_tokens'))).as('tokens'),
    ])
    .where(grain, '>=', from)
    .where(grain, '<', to)
    .groupBy(['provider', 'model'])
    .execute();
  return rows.map((r) => ({
    provider: r.provider,
    model: r.model,
    requests: Number(r.requests ?? 0),
    failed: Number(r.failed ?? 0),
    costUsd: Number(r.cost ?? 0),
    latencyMsTotal: Number(r.latency ?? 0),
    tokens: Number(r.tokens ?? 0),
  }));
}

/** Error events per source over the minutes [from, to). */
export async function errorsBySourceInMinutes(db: Executor, from: string, to: string) {
  const rows = await db
    .selectFrom('error_minute')
    .select((eb) => ['source', eb.fn.sum<number | string>('errors').as('errors')])
    .where('minute', '>=', from)
    .where('minute', '<', to)
    .groupBy('source')
    .execute();
  return rows.map((r) => ({ source: r.source, errors: Number(r.errors ?? 0) }));
}

/** Calls per service over the minutes [from, to), and how many succeeded. */
export async function integrationsInMinutes(db: Executor, from: string, to: string) {
  const rows = await db
    .selectFrom('integration_minute')
    .select((eb) => [
      'service_name',
      eb.fn.sum<number | string>('total_calls').as('total'),
      eb.fn.sum<number | string>('success_count').as('success'),
    ])
    .where('minute', '>=', from)
    .where('minute', '<', to)
    .groupBy('service_name')
    .execute();
  return rows.map((r) => ({
    serviceName: r.service_name,
    total: Number(r.total ?? 0),
    success: Number(r.success ?? 0),
  }));
}

/** Cache hits and misses over the minutes [from, to). */
export async function cacheInMinutes(db: Executor, from: string, to: string) {
  const row = await db
    .selectFrom('cache_minute')
    .select((eb) => [
      eb.fn.sum<number | string>('hits').as('hits'),
      eb.fn.sum<number | string>('misses').as('misses'),
    ])
    .where('minute', '>=', from)
    .where('minute', '<', to)
    .executeTakeFirstOrThrow();
  return { hits: Number(row.hits ?? 0), misses: Number(row.misses ?? 0) };
}
