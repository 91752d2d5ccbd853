import type { Executor } from './database.js';
import type { UsageKind } from './limit-tables.js';

/** The tables counted per chat, user or feature and per hour (migration 20261207090000-limits). */
type SubjectHours =
  | { table: 'limit_usage'; column: 'requests' | 'tokens' | 'cost_usd' }
  | { table: 'limit_grants'; column: 'granted' };

/**
 * The `limit` subjects of one kind with the highest sum of `column` over the whole hours from `from` to
 * `to` (ISO bucket names), highest first: for "who is near a limit" on limit_usage and limit_grants alike.
 */
export async function topOverHours(
  db: Executor,
  { table, column }: SubjectHours,
  kind: UsageKind,
  from: string,
  to: string,
  limit: number,
): Promise<{ subject: string; used: number }[]> {
  const rows = await db
    .selectFrom(table)
    .select(['subject', (eb) => eb.fn.sum<number | string>(column).as('used')])
    .where('kind', '=', kind)
    .where('grain', '=', 'hour')
    .where('bucket', '>=', from)
    .where('bucket', '<', to)
    .groupBy('subject')
    .orderBy('used', 'desc')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ subject: row.subject, used: Number(row.used) }));
}
