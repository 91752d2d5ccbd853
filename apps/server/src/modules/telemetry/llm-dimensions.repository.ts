import { sql, type ExpressionBuilder, type Kysely, type RawBuilder } from 'kysely';
import type { Executor } from '../../db/database.js';
import { isPostgres } from '../../db/locks.js';
import { DAY_MS } from '../../lib/hour-buckets.js';
import type { LlmDimensionSums, SpendSum } from './llm-dimensions.js';

/**
 * All SQL of the llm_call dimension rollups (docs/operators/metrics.md, "Usage by feature, chat and user"):
 * the upserts of the ingest transaction, the folding of a finished day's long tail of chats (users) into one
 * row, pruning, and the reads of the endpoints.
 */

/** The daily spend tables and the column naming the chat (user) in each. */
export const SPEND_TABLES = {
  chats: { table: 'llm_chat_daily', key: 'chat_id' },
  users: { table: 'llm_user_daily', key: 'user_id' },
} as const;
export type SpendKind = keyof typeof SPEND_TABLES;

/** The key of a day's row that holds the chats (users) folded out of its top list; no Telegram id. */
export const OTHER_KEY = '__other__';

/**
 * The spend tables differ only in their key column's name, so one statement is written for both with the
 * names chosen at run time; Kysely cannot type a table chosen so, nor the generic ON CONFLICT sums of
 * `added`, hence this untyped view (the column names are checked by the tests on both databases).
 */
type UntypedSchema = Record<string, Record<string, unknown>>;
type Untyped = Kysely<UntypedSchema>;
const untyped = (db: Executor) => db as unknown as Untyped;

/** ON CONFLICT: the stored sum plus the batch's. */
function added(table: string, columns: readonly string[]): Record<string, RawBuilder<unknown>> {
  return Object.fromEntries(
    columns.map((column) => [
      column,
      sql`${sql.ref(`${table}.${column}`)} + ${sql.ref(`excluded.${column}`)}`,
    ]),
  );
}

/** Rows per upsert: within SQLite's 32,766 bound parameters (at most 9 a row) for a batch of any size. */
const ROWS_PER_UPSERT = 2_000;

function slices<T>(rows: T[]): T[][] {
  const parts: T[][] = [];
  for (let i = 0; i < rows.length; i += ROWS_PER_UPSERT) parts.push(rows.slice(i, i + ROWS_PER_UPSERT));
  return parts;
}

async function upsertSpend(db: Executor, kind: SpendKind, sums: SpendSum[]): Promise<void> {
  const { table, key } = SPEND_TABLES[kind];
  for (const part of slices(sums)) {
    await untyped(db)
      .insertInto(table)
      .values(part.map(({ key: id, ...sum }) => ({ ...sum, [key]: id })))
      .onConflict((oc) =>
        oc.columns(['day', key]).doUpdateSet(added(table, ['requests', 'tokens', 'cost_usd'])),
      )
      .execute();
  }
}

/** One upsert per table (per 2,000 rows), the batch aggregated and sorted first (llm-dimensions.ts). */
export async function upsertDimensionSums(db: Executor, sums: LlmDimensionSums): Promise<void> {
  for (const part of slices(sums.features)) {
    await untyped(db)
      .insertInto('llm_feature_hourly')
      .values(part)
      .onConflict((oc) =>
        oc
          .columns(['hour', 'feature', 'provider', 'model'])
          .doUpdateSet(added('llm_feature_hourly', FEATURE_SUMS)),
      )
      .execute();
  }
  for (const part of slices(sums.errors)) {
    await untyped(db)
      .insertInto('llm_error_hourly')
      .values(part)
      .onConflict((oc) =>
        oc
          .columns(['hour', 'provider', 'model', 'error_type'])
          .doUpdateSet(added('llm_error_hourly', ['errors'])),
      )
      .execute();
  }
  for (const part of slices(byDay(sums.features, FEATURE_SUMS))) {
    await untyped(db)
      .insertInto('llm_feature_daily')
      .values(part)
      .onConflict((oc) =>
        oc
          .columns(['day', 'feature', 'provider', 'model'])
          .doUpdateSet(added('llm_feature_daily', FEATURE_SUMS)),
      )
      .execute();
  }
  for (const part of slices(byDay(sums.errors, ['errors']))) {
    await untyped(db)
      .insertInto('llm_error_daily')
      .values(part)
      .onConflict((oc) =>
        oc
          .columns(['day', 'provider', 'model', 'error_type'])
          .doUpdateSet(added('llm_error_daily', ['errors'])),
      )
      .execute();
  }
  await upsertSpend(db, 'chats', sums.chats);
  await upsertSpend(db, 'users', sums.users);
  const totals = (['chats', 'users'] as const).flatMap((kind) =>
    byDay(
      sums[kind].map(({ day, requests, tokens, cost_usd }) => ({
        hour: day,
        kind,
        requests,
        tokens,
        cost_usd,
      })),
      SPEND_SUMS,
    ),
  );
  if (totals.length > 0) {
    await untyped(db)
      .insertInto('llm_spend_daily_totals')
      .values(totals)
      .onConflict((oc) =>
        oc.columns(['kind', 'day']).doUpdateSet(added('llm_spend_daily_totals', SPEND_SUMS)),
      )
      .execute();
  }
}

const SPEND_SUMS = ['requests', 'tokens', 'cost_usd'] as const;

const FEATURE_SUMS = ['requests', 'failed_requests', 'input_tokens', 'output_tokens', 'cost_usd'] as const;

/**
 * Hourly sums added up per UTC day (the hour key's first ten characters), sorted by key like the hourly
 * ones (they are sorted by hour first, and an hour's rows by the rest of the key).
 */
function byDay<T extends { hour: string }>(rows: T[], sums: readonly string[]) {
  const days = new Map<string, Record<string, unknown>>();
  for (const { hour, ...rest } of rows) {
    const row = rest as Record<string, unknown>;
    const day = hour.slice(0, 10);
    const name = [
      day,
      ...Object.entries(row)
        .filter(([k]) => !sums.includes(k))
        .map(([, v]) => String(v)),
    ].join('\u0000');
    const sum = days.get(name);
    if (!sum) days.set(name, { day, ...row });
    else for (const column of sums) sum[column] = Number(sum[column]) + Number(row[column]);
  }
  return [...days.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
}

/** Days before `beforeDay` holding more than `keep` chats (users) besides their other row. */
export async function daysOverBound(
  db: Executor,
  kind: SpendKind,
  beforeDay: string,
  keep: number,
): Promise<string[]> {
  const { table, key } = SPEND_TABLES[kind];
  const rows = await untyped(db)
    .selectFrom(table)
    .select('day')
    .where('day', '<', beforeDay)
    .where(key, '<>', OTHER_KEY)
    .groupBy('day')
    .having((eb) => eb.fn.countAll(), '>', keep)
    .orderBy('day')
    .execute();
  return rows.map((row) => String(row.day));
}

/**
 * Keeps the day's top `keep` chats (users) by cost (ties by id) and folds the rest into its other row;
 * returns how many rows were folded. The deleted rows' sums are what the other row gains (DELETE …
 * RETURNING), so a late event's increment is counted once whether it landed before or after the delete.
 * Run in a transaction. On PostgreSQL the rows are locked in key order first, the order ingestion's
 * upserts take them in, so a late event for that day cannot deadlock with the fold.
 */
export async function foldDay(db: Executor, kind: SpendKind, day: string, keep: number): Promise<number> {
  const { table, key } = SPEND_TABLES[kind];
  const last = await untyped(db)
    .selectFrom(table)
    .select(['cost_usd', key])
    .where('day', '=', day)
    .where(key, '<>', OTHER_KEY)
    .orderBy('cost_usd', 'desc')
    .orderBy(key)
    .limit(1)
    .offset(keep - 1)
    .executeTakeFirst();
  if (!last) return 0;
  const cost = Number(last.cost_usd);
  const lastKey = String(last[key]);
  // Ranked after the last kept row: cheaper, or as cheap with a later id.
  const beyond = (eb: ExpressionBuilder<UntypedSchema, string>) =>
    eb.and([
      eb('day', '=', day),
      eb(key, '<>', OTHER_KEY),
      eb.or([eb('cost_usd', '<', cost), eb.and([eb('cost_usd', '=', cost), eb(key, '>', lastKey)])]),
    ]);
  if (isPostgres(db)) {
    await untyped(db).selectFrom(table).select(key).where(beyond).orderBy(key).forUpdate().execute();
  }
  const folded = await untyped(db)
    .deleteFrom(table)
    .where(beyond)
    .returning(['requests', 'tokens', 'cost_usd'])
    .execute();
  if (folded.length === 0) return 0;
  const other: SpendSum = { day, key: OTHER_KEY, requests: 0, tokens: 0, cost_usd: 0 };
  for (const row of folded) {
    other.requests += Number(row.requests);
    other.tokens += Number(row.tokens);
    other.cost_usd += Number(row.cost_usd);
  }
  await upsertSpend(db, kind, [other]);
  return folded.length;
}

/**
 * Deletes the hourly rollups before hour `before` and the daily ones before its day (a day's row cannot
 * lose some of its hours, so the daily sums of the day holding `before` stay until the next day's run);
 * returns how many.
 */
export async function pruneDimensionRollups(db: Executor, before: string): Promise<number> {
  let removed = 0;
  for (const table of ['llm_feature_hourly', 'llm_error_hourly'] as const) {
    const result = await db.deleteFrom(table).where('hour', '<', before).executeTakeFirst();
    removed += Number(result.numDeletedRows);
  }
  for (const table of [
    ...Object.values(SPEND_TABLES).map((t) => t.table),
    'llm_spend_daily_totals',
    'llm_feature_daily',
    'llm_error_daily',
  ] as const) {
    const result = await db.deleteFrom(table).where('day', '<', before.slice(0, 10)).executeTakeFirst();
    removed += Number(result.numDeletedRows);
  }
  return removed;
}

// Reads. Hour windows are [from, to) in hour keys, day windows [fromDay, toDay] both included; sums come
// back as strings from PostgreSQL, hence Number().

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

interface Spend {
  requests: number;
  tokens: number;
  cost_usd: number;
}

const spendOf = (row: Record<string, unknown>): Spend => ({
  requests: Number(row.requests),
  tokens: Number(row.tokens),
  cost_usd: Number(row.cost_usd),
});

type Ranked = Spend & { id: string };

/** The days from `fromDay` to `toDay`, both included (`YYYY-MM-DD`). */
function daysOf(fromDay: string, toDay: string): string[] {
  const days: string[] = [];
  for (let ms = Date.parse(fromDay); ms <= Date.parse(toDay); ms += DAY_MS) {
    days.push(new Date(ms).toISOString().slice(0, 10));
  }
  return days;
}

/**
 * Ids rank by their cost to the nano-dollar, then by id in code point order: sums of the same costs added
 * in another order (another query plan, or a cached part plus a fresh one) may differ in their last bits,
 * and must neither reorder equal spenders nor tell them apart. The order is the same in SQL (`RANKED_COST`,
 * `byIdOrder`: PostgreSQL compares the ids as bytes whatever the database's collation) and in `ranked`.
 */
const RANKED_COST = sql`round(sum(cost_usd) * 1000000000)`;
const rankedCost = (usd: number) => Math.round(usd * 1e9);
const byCodePoint = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));
function byIdOrder(db: Executor, key: string) {
  return isPostgres(db) ? sql`${sql.ref(key)} collate "C"` : sql.ref(key);
}

/** The first `limit` of the rows as ranked above. */
function ranked(rows: Ranked[], limit: number): Ranked[] {
  return rows
    .sort((a, b) => rankedCost(b.cost_usd) - rankedCost(a.cost_usd) || byCodePoint(a.id, b.id))
    .slice(0, limit);
}

/**
 * Whether no id outside `ranked` can rank among its first `limit`: each spent at most `bound`, and the
 * `limit`-th spent more, by more than RANKED_COST's rounding and the last bits of a sum in another order.
 */
function proven(list: Ranked[], limit: number, bound: number): boolean {
  const last = list[limit - 1];
  return last !== undefined && last.cost_usd > bound + 2e-9 + Math.abs(bound) * 1e-9;
}

/** Per-day candidates are read this many times `limit` deep at first, and four times deeper per retry. */
const FIRST_DEPTH = 4;
/** Beyond this many per-day rows the bounded read is no cheaper than summing every row of the range. */
const MAX_CANDIDATE_ROWS = 20_000;

/**
 * The `limit` chats (users) that spent most in the days, other rows excluded, and the days' total: the
 * same answer as summing every row of the days per id and ranking the sums (`rankAllSpenders`), found by
 * reading far fewer rows when a few ids spend most (migrations 20261129090000-llm-spend-reads and 20261130090000-llm-spend-lookups).
 * Each day's `depth` costliest ids are the candidates. An id that is not one of them spent at most that
 * day's last candidate's cost on each day, so at most `bound`, the sum of those costs (a day with fewer
 * ids than `depth` adds nothing: all its ids are candidates). The candidates' exact sums are read; when
 * the `limit`-th of them spent more than `bound`, no other id can rank among the first `limit`, and they
 * are the answer. Otherwise the read goes deeper, and past MAX_CANDIDATE_ROWS every row is summed.
 */
export async function topSpenders(
  db: Executor,
  kind: SpendKind,
  fromDay: string,
  toDay: string,
  limit: number,
): Promise<{ top: Ranked[]; total: Spend }> {
  const days = daysOf(fromDay, toDay);
  for (let depth = FIRST_DEPTH * limit; depth * days.length <= MAX_CANDIDATE_ROWS; depth *= 4) {
    const top = await boundedTop(db, kind, days, depth, limit);
    if (top) return { top, total: await totalSpend(db, kind, fromDay, toDay) };
  }
  return {
    top: await rankAll(db, kind, fromDay, toDay, limit),
    total: await totalSpend(db, kind, fromDay, toDay),
  };
}

/** The first `limit` ids if each day's `depth` costliest prove them (see topSpenders), else null. */
async function boundedTop(
  db: Executor,
  kind: SpendKind,
  days: string[],
  depth: number,
  limit: number,
): Promise<Ranked[] | null> {
  const { ids, bound, complete } = await costliestPerDay(db, kind, days, depth);
  if (ids.size === 0) return [];
  const list = ranked(await sumsOf(db, kind, [...ids], days[0]!, days.at(-1)!), limit);
  return complete || proven(list, limit, bound) ? list : null;
}

/**
 * Each day's `depth` costliest ids (other rows excluded), and the most any other id spent over the days:
 * the sum of each full day's last listed cost. `complete` when no day had more ids than `depth`.
 */
async function costliestPerDay(db: Executor, kind: SpendKind, days: string[], depth: number) {
  const { table, key } = SPEND_TABLES[kind];
  const perDay = days.map(
    (day) => sql`select * from (select day, ${sql.ref(key)} as id, cost_usd from ${sql.table(table)}
      where day = ${day} and ${sql.ref(key)} <> ${OTHER_KEY}
      order by cost_usd desc limit ${depth}) ${sql.table(`d${day.replaceAll('-', '')}`)}`,
  );
  const { rows } = await sql<Record<string, unknown>>`${sql.join(perDay, sql` union all `)}`.execute(db);
  const deepest = new Map<string, { rows: number; last: number }>();
  const ids = new Set<string>();
  for (const row of rows) {
    const day = String(row.day);
    const seen = deepest.get(day) ?? { rows: 0, last: Infinity };
    seen.rows += 1;
    seen.last = Math.min(seen.last, Number(row.cost_usd));
    deepest.set(day, seen);
    ids.add(String(row.id));
  }
  let bound = 0;
  let complete = true;
  for (const { rows: count, last } of deepest.values()) {
    if (count < depth) continue;
    bound += last;
    complete = false;
  }
  return { ids, bound, complete };
}

/** The exact sums of the ids over the days [fromDay, toDay] (an id without rows there is left out). */
async function sumsOf(
  db: Executor,
  kind: SpendKind,
  ids: string[],
  fromDay: string,
  toDay: string,
): Promise<Ranked[]> {
  const { table, key } = SPEND_TABLES[kind];
  const sums = await untyped(db)
    .selectFrom(table)
    .select((eb) => [
      sql.ref(key).as('id'),
      eb.fn.sum('requests').as('requests'),
      eb.fn.sum('tokens').as('tokens'),
      eb.fn.sum('cost_usd').as('cost_usd'),
    ])
    .where(key, 'in', ids)
    .where('day', '>=', fromDay)
    .where('day', '<=', toDay)
    .groupBy(key)
    .execute();
  return sums.map((row) => ({ id: String(row.id), ...spendOf(row) }));
}

/** A ranking of settled days kept by the caller: their `depth` costliest ids and their total. */
export type SettledSpenders = (depth: number) => Promise<{ top: Ranked[]; total: Spend }>;

/**
 * topSpenders for the days [fromDay, toDay] whose days before `liveFrom` are settled (settled-hours.ts):
 * the caller keeps their ranking (`settled`, topSpenders of those days to a given depth), so only the live
 * days' rows are read, and the same answer comes out. The candidates are the settled days' `2 × depth`
 * costliest ids and each live day's `depth` costliest; their exact sums are the kept settled sum (or, for
 * an id the kept list lacks, its settled rows) plus their live rows. Any other id spent at most the kept
 * list's last cost before `liveFrom` and each full live day's last listed cost after it; when the
 * `limit`-th candidate spent more than that, the candidates hold the answer. Otherwise the read goes
 * deeper, and past MAX_CANDIDATE_ROWS candidates the whole range is read by topSpenders.
 */
export async function topSpendersSplit(
  db: Executor,
  kind: SpendKind,
  days: { fromDay: string; liveFrom: string; toDay: string },
  limit: number,
  settled: SettledSpenders,
): Promise<{ top: Ranked[]; total: Spend }> {
  const liveDays = daysOf(days.liveFrom, days.toDay);
  const lastSettled = new Date(Date.parse(days.liveFrom) - DAY_MS).toISOString().slice(0, 10);
  for (let depth = FIRST_DEPTH * limit; depth * (2 + liveDays.length) <= MAX_CANDIDATE_ROWS; depth *= 4) {
    const past = await settled(2 * depth);
    const live = await costliestPerDay(db, kind, liveDays, depth);
    const pastById = new Map(past.top.map((row) => [row.id, row]));
    // A kept list shorter than asked holds every id with settled rows: any other id spent nothing then.
    const pastComplete = past.top.length < 2 * depth;
    const pastBound = pastComplete ? 0 : past.top.at(-1)!.cost_usd;
    const unkept = [...live.ids].filter((id) => !pastById.has(id));
    const earlier =
      pastComplete || unkept.length === 0 ? [] : await sumsOf(db, kind, unkept, days.fromDay, lastSettled);
    const candidates = [...new Set([...pastById.keys(), ...live.ids])];
    const recent =
      candidates.length === 0 ? [] : await sumsOf(db, kind, candidates, days.liveFrom, days.toDay);
    const sums = new Map<string, Ranked>();
    for (const row of [...past.top, ...earlier, ...recent]) {
      const sum = sums.get(row.id) ?? { id: row.id, requests: 0, tokens: 0, cost_usd: 0 };
      sum.requests += row.requests;
      sum.tokens += row.tokens;
      sum.cost_usd += row.cost_usd;
      sums.set(row.id, sum);
    }
    const list = ranked([...sums.values()], limit);
    if ((pastComplete && live.complete) || proven(list, limit, pastBound + live.bound)) {
      const liveTotal = await totalSpend(db, kind, days.liveFrom, days.toDay);
      return {
        top: list,
        total: {
          requests: past.total.requests + liveTotal.requests,
          tokens: past.total.tokens + liveTotal.tokens,
          cost_usd: past.total.cost_usd + liveTotal.cost_usd,
        },
      };
    }
  }
  return topSpenders(db, kind, days.fromDay, days.toDay, limit);
}

/**
 * The days' total: from their stored totals (a row per day), or, for the tests' reference, from every row
 * of the days.
 */
async function totalSpend(
  db: Executor,
  kind: SpendKind,
  fromDay: string,
  toDay: string,
  from: 'totals' | 'rows' = 'totals',
): Promise<Spend> {
  const days = untyped(db)
    .selectFrom(from === 'totals' ? 'llm_spend_daily_totals' : SPEND_TABLES[kind].table)
    .where('day', '>=', fromDay)
    .where('day', '<=', toDay);
  const total = await (from === 'totals' ? days.where('kind', '=', kind) : days)
    .select((eb) => [
      eb.fn.sum('requests').as('requests'),
      eb.fn.sum('tokens').as('tokens'),
      eb.fn.sum('cost_usd').as('cost_usd'),
    ])
    .executeTakeFirstOrThrow();
  // SUM over no rows is NULL: Number(null) is 0.
  return spendOf(total);
}

/** topSpenders by summing every row of the days, per id and in all: the reference of the tests. */
export async function rankAllSpenders(
  db: Executor,
  kind: SpendKind,
  fromDay: string,
  toDay: string,
  limit: number,
): Promise<{ top: Ranked[]; total: Spend }> {
  return {
    top: await rankAll(db, kind, fromDay, toDay, limit),
    total: await totalSpend(db, kind, fromDay, toDay, 'rows'),
  };
}

/** The first `limit` ids by their sums over every row of the days: the lists no short read proves. */
async function rankAll(db: Executor, kind: SpendKind, fromDay: string, toDay: string, limit: number) {
  const { table, key } = SPEND_TABLES[kind];
  const top = await untyped(db)
    .selectFrom(table)
    .where('day', '>=', fromDay)
    .where('day', '<=', toDay)
    .select((eb) => [
      sql.ref(key).as('id'),
      eb.fn.sum('requests').as('requests'),
      eb.fn.sum('tokens').as('tokens'),
      eb.fn.sum('cost_usd').as('cost_usd'),
    ])
    .where(key, '<>', OTHER_KEY)
    .groupBy(key)
    .orderBy(RANKED_COST, 'desc')
    .orderBy(byIdOrder(db, key))
    .limit(limit)
    .execute();
  return top.map((row) => ({ id: String(row.id), ...spendOf(row) }));
}
