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

const FEATURE_COLUMNS =
  'feature, provider, model, requests, failed_requests, input_tokens, output_tokens, cost_usd';

export async function featureUsage(db: Executor, from: string, to: string) {
  const { rows } = await sql<Record<string, string | number>>`
    select feature, provider, model, sum(requests) as requests, sum(failed_requests) as failed_requests,
      sum(input_tokens) as input_tokens, sum(output_tokens) as output_tokens, sum(cost_usd) as cost_usd
    from (${hoursAndDays('llm_feature_hourly', 'llm_feature_daily', FEATURE_COLUMNS, from, to)}) u
    group by feature, provider, model`.execute(db);
  return rows.map((r) => ({
    feature: String(r.feature),
    provider: String(r.provider),
    model: String(r.model),
    requests: Number(r.requests),
    failed_requests: Number(r.failed_requests),
    input_tokens: Number(r.input_tokens),
    output_tokens: Number(r.output_tokens),
    cost_usd: Number(r.cost_usd),
  }));
}

/**
 * Requests and failed requests per provider and model: the feature sums added over features (the same
 * calls as the hourly usage rollup, which has no daily copy).
 */
export async function requestsByModel(db: Executor, from: string, to: string) {
  const { rows } = await sql<Record<string, string | number>>`
    select provider, model, sum(requests) as requests, sum(failed_requests) as failed_requests
    from (${hoursAndDays('llm_feature_hourly', 'llm_feature_daily', 'provider, model, requests, failed_requests', from, to)}) u
    group by provider, model`.execute(db);
  return rows.map((r) => ({
    provider: String(r.provider),
    model: String(r.model),
    requests: Number(r.requests),
    failed_requests: Number(r.failed_requests),
  }));
}

export async function errorsByType(db: Executor, from: string, to: string) {
  const { rows } = await sql<Record<string, string | number>>`
    select provider, model, error_type, sum(errors) as errors
    from (${hoursAndDays('llm_error_hourly', 'llm_error_daily', 'provider, model, error_type, errors', from, to)}) u
    group by provider, model, error_type`.execute(db);
  return rows.map((r) => ({
    provider: String(r.provider),
    model: String(r.model),
    error_type: String(r.error_type),
    errors: Number(r.errors),
  }));
}
