import { sql, type Kysely } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { SpendKind } from './llm-dimensions.js';
import { SPEND_TABLES } from './llm-dimensions.repository.js';

/**
 * The reads of the panel exports (docs/operators/metrics.md, "CSV exports"): keyset pages, each starting
 * after the last row of the page before, so every page costs the same however far into the file it is, and a
 * file is never read whole. Hour windows are [from, to) in hour keys, day windows [fromDay, toDay] both
 * included; sums come back as strings from PostgreSQL, hence Number().
 */

/** An hourly usage row's key, in the order of the rollup's primary key. */
export interface UsageKey {
  hour: string;
  feature: string;
  provider: string;
  model: string;
}

export interface UsageRow extends UsageKey {
  requests: number;
  failed_requests: number;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number;
}

/**
 * The hourly usage rows of [from, to) after `after`, in primary key order: a range scan of the primary
 * key, whose cost is the rows it returns.
 */
export async function usageRows(
  db: Executor,
  from: string,
  to: string,
  after: UsageKey | null,
  limit: number,
) {
  const rows = await db
    .selectFrom('llm_feature_hourly')
    .select([
      'hour',
      'feature',
      'provider',
      'model',
      'requests',
      'failed_requests',
      'input_tokens',
      'output_tokens',
      'cost_usd',
    ])
    .where((eb) =>
      after
        ? eb(
            eb.refTuple('hour', 'feature', 'provider', 'model'),
            '>',
            eb.tuple(after.hour, after.feature, after.provider, after.model),
          )
        : eb('hour', '>=', from),
    )
    .where('hour', '<', to)
    .orderBy('hour')
    .orderBy('feature')
    .orderBy('provider')
    .orderBy('model')
    .limit(limit)
    .execute();
  return rows.map((r): UsageRow => ({
    hour: r.hour,
    feature: r.feature,
    provider: r.provider,
    model: r.model,
    requests: Number(r.requests),
    failed_requests: Number(r.failed_requests),
    input_tokens: Number(r.input_tokens),
    output_tokens: Number(r.output_tokens),
    cost_usd: Number(r.cost_usd),
  }));
}

/** A daily spend row's key, in the order of the table's primary key. */
export interface SpendKey {
  day: string;
  id: string;
}

/** As in top-spenders.repository.ts, the spend tables are named at run time, so read untyped. */
const untyped = (db: Executor) => db as unknown as Kysely<Record<string, Record<string, unknown>>>;

/**
 * The daily rows of the chats (users) of the days after `after`, in primary key order (the rows that sum
 * the chats folded out of a day's top list included, under OTHER_KEY): a range scan of the primary key.
 */
export async function spendRows(
  db: Executor,
  kind: SpendKind,
  fromDay: string,
  toDay: string,
  after: SpendKey | null,
  limit: number,
) {
  const { table, key } = SPEND_TABLES[kind];
  const rows = await untyped(db)
    .selectFrom(table)
    .select(['day', sql.ref(key).as('id'), 'requests', 'tokens', 'cost_usd'])
    .where((eb) =>
      after ? eb(eb.refTuple('day', key), '>', eb.tuple(after.day, after.id)) : eb('day', '>=', fromDay),
    )
    .where('day', '<=', toDay)
    .orderBy('day')
    .orderBy(key)
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    day: String(r.day),
    id: String(r.id),
    requests: Number(r.requests),
    tokens: Number(r.tokens),
    cost_usd: Number(r.cost_usd),
  }));
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
