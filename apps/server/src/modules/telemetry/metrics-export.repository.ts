import { sql, type Kysely } from 'kysely';
import type { Executor } from '../../db/database.js';
import { OTHER_KEY, SPEND_TABLES, type SpendKind } from './llm-dimensions.repository.js';

/**
 * The reads of the panel exports (issue 17, "CSV export"): keyset pages, each starting after the last row
 * of the page before, so every page costs the same however far into the file it is, and a file is never
 * read whole. Hour windows are [from, to) in hour keys, day windows [fromDay, toDay] both included; sums
 * come back as strings from PostgreSQL, hence Number().
 */

export interface UsageKey {
  provider: string;
  model: string;
  feature: string;
}

/** The usage of the hours [from, to) (one UTC day or part of one) per provider, model and feature. */
export async function usagePage(
  db: Executor,
  from: string,
  to: string,
  after: UsageKey | null,
  limit: number,
) {
  let q = db
    .selectFrom('llm_feature_hourly')
    .select((eb) => [
      'provider',
      'model',
      'feature',
      eb.fn.sum<number | string>('requests').as('requests'),
      eb.fn.sum<number | string>('failed_requests').as('failed_requests'),
      eb.fn.sum<number | string>('input_tokens').as('input_tokens'),
      eb.fn.sum<number | string>('output_tokens').as('output_tokens'),
      eb.fn.sum<number | string>('cost_usd').as('cost_usd'),
    ])
    .where('hour', '>=', from)
    .where('hour', '<', to)
    .groupBy(['provider', 'model', 'feature'])
    .orderBy('provider')
    .orderBy('model')
    .orderBy('feature')
    .limit(limit);
  if (after) {
    q = q.where((eb) =>
      eb(
        eb.refTuple('provider', 'model', 'feature'),
        '>',
        eb.tuple(after.provider, after.model, after.feature),
      ),
    );
  }
  const rows = await q.execute();
  return rows.map((r) => ({
    provider: r.provider,
    model: r.model,
    feature: r.feature,
    requests: Number(r.requests),
    failed_requests: Number(r.failed_requests),
    input_tokens: Number(r.input_tokens),
    output_tokens: Number(r.output_tokens),
    cost_usd: Number(r.cost_usd),
  }));
}

/** Where a spend page starts: after this chat (user), by cost, highest first, then by id. */
export interface SpendKey {
  cost: number;
  id: string;
}

/** As in llm-dimensions.repository.ts, the spend tables are named at run time, so read untyped. */
const untyped = (db: Executor) => db as unknown as Kysely<Record<string, Record<string, unknown>>>;

/**
 * The chats (users) of the days, by their cost over the days (highest first, ties by id), after `after`;
 * the rows that sum the chats folded out of a day's top list are left out (spendOfOthers sums them).
 */
export async function spendPage(
  db: Executor,
  kind: SpendKind,
  fromDay: string,
  toDay: string,
  after: SpendKey | null,
  limit: number,
) {
  const { table, key } = SPEND_TABLES[kind];
  const cost = sql<number>`sum(${sql.ref('cost_usd')})`;
  let q = untyped(db)
    .selectFrom(table)
    .select((eb) => [
      sql.ref(key).as('id'),
      eb.fn.sum('requests').as('requests'),
      eb.fn.sum('tokens').as('tokens'),
      cost.as('cost_usd'),
    ])
    .where('day', '>=', fromDay)
    .where('day', '<=', toDay)
    .where(key, '<>', OTHER_KEY)
    .groupBy(key)
    .orderBy(cost, 'desc')
    .orderBy(key)
    .limit(limit);
  if (after) {
    // The sum is compared with the very number the previous page read for it, so the same rows summed
    // the same way meet it exactly.
    q = q.having((eb) =>
      eb.or([eb(cost, '<', after.cost), eb.and([eb(cost, '=', after.cost), eb(key, '>', after.id)])]),
    );
  }
  const rows = await q.execute();
  return rows.map((r) => ({
    id: String(r.id),
    requests: Number(r.requests),
    tokens: Number(r.tokens),
    cost_usd: Number(r.cost_usd),
  }));
}

/** The days' sum of the chats (users) folded out of their top lists. */
export async function spendOfOthers(db: Executor, kind: SpendKind, fromDay: string, toDay: string) {
  const { table, key } = SPEND_TABLES[kind];
  const row = await untyped(db)
    .selectFrom(table)
    .select((eb) => [
      eb.fn.sum('requests').as('requests'),
      eb.fn.sum('tokens').as('tokens'),
      eb.fn.sum('cost_usd').as('cost_usd'),
    ])
    .where('day', '>=', fromDay)
    .where('day', '<=', toDay)
    .where(key, '=', OTHER_KEY)
    .executeTakeFirstOrThrow();
  // SUM over no rows is NULL: Number(null) is 0.
  return { requests: Number(row.requests), tokens: Number(row.tokens), cost_usd: Number(row.cost_usd) };
}

/** Calls per service over the hours [from, to), by service name, after `after`. */
export async function integrationsPage(
  db: Executor,
  from: string,
  to: string,
  after: string | null,
  limit: number,
) {
  let q = db
    .selectFrom('integration_hourly')
    .select((eb) => [
      'service_name',
      eb.fn.sum<number | string>('total_calls').as('total_calls'),
      eb.fn.sum<number | string>('success_count').as('success_count'),
      eb.fn.sum<number | string>('error_count').as('error_count'),
      eb.fn.max('last_call_at').as('last_call_at'),
    ])
    .where('hour', '>=', from)
    .where('hour', '<', to)
    .groupBy('service_name')
    .orderBy('service_name')
    .limit(limit);
  if (after !== null) q = q.where('service_name', '>', after);
  const rows = await q.execute();
  if (rows.length === 0) return [];
  // The status of each service's latest call: the hour row that holds that call says it.
  const latest = await db
    .selectFrom('integration_hourly')
    .select(['service_name', 'last_status'])
    .where('hour', '>=', from)
    .where('hour', '<', to)
    .where((eb) =>
      eb(
        eb.refTuple('service_name', 'last_call_at'),
        'in',
        rows.map((r) => eb.tuple(r.service_name, String(r.last_call_at))),
      ),
    )
    .execute();
  const status = new Map(latest.map((row) => [row.service_name, row.last_status]));
  return rows.map((r) => ({
    service_name: r.service_name,
    total_calls: Number(r.total_calls),
    success_count: Number(r.success_count),
    error_count: Number(r.error_count),
    last_call_at: String(r.last_call_at),
    last_status: status.get(r.service_name) ?? null,
  }));
}
