import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { DAY_MS } from '../../lib/hour-buckets.js';

/**
 * The reads of the feature and error-type rollups (docs/operators/metrics.md, "Usage by feature, chat and
 * user"). Hour windows are [from, to) in hour keys; sums come back as strings from PostgreSQL, hence Number().
 */

/**
 * How an hour window [from, to) is read: its whole UTC days [fromDay, toDay) from the daily sums, the
 * hours before and after them from the hourly ones.
 */
function split(from: string, to: string) {
  const start = Date.parse(from);
  const end = Date.parse(to);
  const firstDay = Math.ceil(start / DAY_MS) * DAY_MS;
  const lastDay = Math.floor(end / DAY_MS) * DAY_MS;
  if (firstDay >= lastDay) return { hours: [[from, to]], fromDay: '', toDay: '' };
  const hour = (ms: number) => new Date(ms).toISOString();
  return {
    hours: [
      [from, hour(firstDay)],
      [hour(lastDay), to],
    ].filter(([a, b]) => a! < b!),
    fromDay: hour(firstDay).slice(0, 10),
    toDay: hour(lastDay).slice(0, 10),
  };
}

/**
 * The rows of an hourly table in the window and of its daily copy in the window's whole days, in one
 * statement (one snapshot) that the caller groups.
 */
function hoursAndDays(hourly: string, daily: string, columns: string, from: string, to: string) {
  const { hours, fromDay, toDay } = split(from, to);
  const inHours = hours.map(([a, b]) => sql`(hour >= ${a} and hour < ${b})`);
  // A window of whole days reads no hours.
  if (inHours.length === 0) inHours.push(sql`1 = 0`);
  const pick = sql.raw(columns);
  return sql`select ${pick} from ${sql.table(hourly)} where ${sql.join(inHours, sql` or `)}
    union all
    select ${pick} from ${sql.table(daily)} where day >= ${fromDay} and day < ${toDay}`;
}

/**
 * The window's `sums` per `keys`, from an hourly table and its daily copy: keys as text, sums as numbers,
 * in that order.
 */
async function sumsPer<K extends string, S extends string>(
  db: Executor,
  tables: { hourly: string; daily: string },
  keys: readonly K[],
  sums: readonly S[],
  window: { from: string; to: string },
): Promise<(Record<K, string> & Record<S, number>)[]> {
  const grouped = sql.raw(keys.join(', '));
  const summed = sql.raw(sums.map((column) => `sum(${column}) as ${column}`).join(', '));
  const columns = [...keys, ...sums].join(', ');
  const { rows } = await sql<Record<string, string | number>>`
    select ${grouped}, ${summed}
    from (${hoursAndDays(tables.hourly, tables.daily, columns, window.from, window.to)}) u
    group by ${grouped}`.execute(db);
  return rows.map(
    (r) =>
      Object.fromEntries([
        ...keys.map((key) => [key, String(r[key])]),
        ...sums.map((column) => [column, Number(r[column])]),
      ]) as Record<K, string> & Record<S, number>,
  );
}

const FEATURES = { hourly: 'llm_feature_hourly', daily: 'llm_feature_daily' };
const ERRORS = { hourly: 'llm_error_hourly', daily: 'llm_error_daily' };

export function featureUsage(db: Executor, from: string, to: string) {
  const sums = ['requests', 'failed_requests', 'input_tokens', 'output_tokens', 'cost_usd'] as const;
  return sumsPer(db, FEATURES, ['feature', 'provider', 'model'] as const, sums, { from, to });
}

/**
 * Requests and failed requests per provider and model: the feature sums added over features (the same
 * calls as the hourly usage rollup, which has no daily copy).
 */
export function requestsByModel(db: Executor, from: string, to: string) {
  const sums = ['requests', 'failed_requests'] as const;
  return sumsPer(db, FEATURES, ['provider', 'model'] as const, sums, { from, to });
}

export function errorsByType(db: Executor, from: string, to: string) {
  return sumsPer(db, ERRORS, ['provider', 'model', 'error_type'] as const, ['errors'] as const, { from, to });
}
