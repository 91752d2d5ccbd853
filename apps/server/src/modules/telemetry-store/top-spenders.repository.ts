import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import type { Executor } from '../../db/database.js';
import { isPostgres } from '../../db/locks.js';
import { DAY_MS } from '../../lib/hour-buckets.js';
import { OTHER_KEY, type SpendKind } from './llm-dimensions.js';
import { SPEND_TABLES } from './llm-dimensions.repository.js';

/**
 * The chats (users) that spent most over a range of UTC days (docs/operators/metrics.md, "Usage by feature,
 * chat and user"), read from the daily spend rollups. Day windows are [fromDay, toDay], both included; sums
 * come back as strings from PostgreSQL, hence Number().
 */

/** The spend tables are named at run time (SPEND_TABLES), so read untyped. */
const untyped = (db: Executor) => db as unknown as Kysely<Record<string, Record<string, unknown>>>;

/** A group's spend, as spendOf reads it back. */
const summedSpend = (eb: ExpressionBuilder<Record<string, Record<string, unknown>>, string>) => [
  eb.fn.sum('requests').as('requests'),
  eb.fn.sum('tokens').as('tokens'),
  eb.fn.sum('cost_usd').as('cost_usd'),
];

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
    .select((eb) => [sql.ref(key).as('id'), ...summedSpend(eb)])
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
    .select(summedSpend)
    .executeTakeFirstOrThrow();
  // SUM over no rows is NULL: Number(null) is 0.
  return spendOf(total);
}

/** topSpenders by summing every row of the days, per id and in all: the reference of the tests. */
export const rankAllSpenders: typeof topSpenders = async (db, kind, fromDay, toDay, limit) => ({
  top: await rankAll(db, kind, fromDay, toDay, limit),
  total: await totalSpend(db, kind, fromDay, toDay, 'rows'),
});

/** The first `limit` ids by their sums over every row of the days: the lists no short read proves. */
async function rankAll(db: Executor, kind: SpendKind, fromDay: string, toDay: string, limit: number) {
  const { table, key } = SPEND_TABLES[kind];
  const top = await untyped(db)
    .selectFrom(table)
    .where('day', '>=', fromDay)
    .where('day', '<=', toDay)
    .select((eb) => [sql.ref(key).as('id'), ...summedSpend(eb)])
    .where(key, '<>', OTHER_KEY)
    .groupBy(key)
    .orderBy(RANKED_COST, 'desc')
    .orderBy(byIdOrder(db, key))
    .limit(limit)
    .execute();
  return top.map((row) => ({ id: String(row.id), ...spendOf(row) }));
}
