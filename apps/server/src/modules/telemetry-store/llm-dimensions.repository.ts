import { sql, type ExpressionBuilder, type Kysely, type RawBuilder } from 'kysely';
import type { Executor } from '../../db/database.js';
import { isPostgres } from '../../db/locks.js';
import { writeCallLookups } from './llm-call-lookups.repository.js';
import { OTHER_KEY, type LlmDimensionSums, type SpendKind, type SpendSum } from './llm-dimensions.js';

/**
 * The writes of the llm_call dimension rollups (docs/operators/metrics.md, "Usage by feature, chat and
 * user"): the upserts of the ingest transaction, the folding of a finished day's long tail of chats (users)
 * into one row, and pruning. llm-dimension-reads.repository.ts and top-spenders.repository.ts read them.
 */

/** The daily spend tables and the column naming the chat (user) in each. */
export const SPEND_TABLES = {
  chats: { table: 'llm_chat_daily', key: 'chat_id' },
  users: { table: 'llm_user_daily', key: 'user_id' },
} as const satisfies Record<SpendKind, { table: string; key: string }>;

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

/** The chats' and users' daily spend, of one batch or of several (spend-buffer.ts). */
export type SpendSums = Pick<LlmDimensionSums, 'chats' | 'users'>;

/**
 * One upsert per table (per 2,000 rows), the batch aggregated and sorted first (llm-dimensions.ts). The
 * chats' and users' spend is written too, unless `spend` is 'deferred': the SQLite ingest worker writes it
 * behind its transactions (spend-buffer.ts).
 */
export async function upsertDimensionSums(
  db: Executor,
  sums: LlmDimensionSums,
  spend: 'inline' | 'deferred' = 'inline',
): Promise<void> {
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
  if (spend === 'inline') await upsertSpendSums(db, sums);
}

/**
 * The chats' and users' daily spend and the days' totals. On SQLite the same transaction writes the calls'
 * chat and user lookups (llm-call-lookups.repository.ts) and records the last call they now cover
 * (llm_spend_written): `lastCallId`, or else the newest call stored, for sums written in the transaction that
 * stored their calls.
 */
export async function upsertSpendSums(db: Executor, sums: SpendSums, lastCallId?: number): Promise<void> {
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
  if (!isPostgres(db)) {
    await writeCallLookups(db, lastCallId);
    await db
      .updateTable('llm_spend_written')
      .set({ last_call_id: lastCallId ?? sql<number>`(select coalesce(max(id), 0) from llm_calls)` })
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
