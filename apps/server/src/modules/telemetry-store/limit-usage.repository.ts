import type { LimitMetric } from '@lumi/contract';
import { sql, type ExpressionBuilder, type Kysely, type RawBuilder } from 'kysely';
import type { Database, Executor } from '../../db/database.js';
import { isPostgres } from '../../db/locks.js';
import { ReusableQuery } from '../../db/reusable-query.js';
import { topOverHours } from '../../db/subject-hours.js';
import type { UsageGrain, UsageKind } from '../../db/limit-tables.js';
import type { RawRow } from './events.repository.js';
import { minuteKey } from '../../lib/hour-buckets.js';
import { hourOfStored } from './llm-dimensions.js';
import { sortedValues } from './rollup-aggregation.js';

/**
 * The usage the limits read (migration 20261207090000-limits; docs/operators/limits.md, "What counts"):
 * limit_usage sums the stored calls per chat, user and feature per UTC hour, written in the ingest
 * transaction like the other rollups, except by the SQLite ingest worker, which writes it behind the batches
 * with the daily spend (spend-buffer.ts); a minute window reads the calls themselves: on PostgreSQL through
 * the chat and user indexes of llm_calls, on SQLite from their lookups (llm-call-lookups.repository.ts).
 */

const SEP = '\u0000';

export interface UsageSum {
  kind: UsageKind;
  subject: string;
  grain: UsageGrain;
  bucket: string;
  requests: number;
  tokens: number;
  cost_usd: number;
}

const keyOf = (sum: Pick<UsageSum, 'kind' | 'subject' | 'bucket'>) =>
  sum.kind + SEP + sum.subject + SEP + sum.bucket;

/** Adds `sums` into `into`, by chat, user or feature and hour. */
export function mergeLimitUsage(into: Map<string, UsageSum>, sums: UsageSum[]): void {
  for (const sum of sums) {
    const key = keyOf(sum);
    const held = into.get(key);
    if (!held) {
      into.set(key, { ...sum });
      continue;
    }
    held.requests += sum.requests;
    held.tokens += sum.tokens;
    held.cost_usd += sum.cost_usd;
  }
}

/** Sums of calls by kind, subject and `grain` bucket: `add` one call's tokens and cost. */
function callSums(grain: UsageGrain) {
  const sums = new Map<string, UsageSum>();
  const add = (kind: UsageKind, subject: string, bucket: string, tokens: number, cost: number) => {
    const key = kind + SEP + subject + SEP + bucket;
    const sum = sums.get(key) ?? { kind, subject, grain, bucket, requests: 0, tokens: 0, cost_usd: 0 };
    sum.requests += 1;
    sum.tokens += tokens;
    sum.cost_usd += cost;
    sums.set(key, sum);
  };
  return { sums, add };
}

/**
 * A batch's calls summed per chat and user and minute (grain `minute`, the minute's start as `bucket`): what
 * a limit over a minute reads of them (the calls since the minute's start, `recentCalls`), for the
 * allowance's mirror (modules/limits/usage-mirror.ts). Never stored as such.
 */
export function aggregateRecentCalls(rows: RawRow<'llm_calls'>[]): UsageSum[] {
  const { sums, add } = callSums('minute');
  for (const row of rows) {
    if (!row.chat_id && !row.user_id) continue;
    const minute = minuteKey(Date.parse(row.ts));
    const tokens = row.input_tokens + row.output_tokens;
    if (row.chat_id) add('chat', row.chat_id, minute, tokens, row.cost_usd);
    if (row.user_id) add('user', row.user_id, minute, tokens, row.cost_usd);
  }
  return [...sums.values()];
}

/** A batch's calls summed per chat, user and feature and hour, sorted by key (the rollups' lock order). */
export function aggregateLimitUsage(rows: RawRow<'llm_calls'>[]): UsageSum[] {
  const { sums, add } = callSums('hour');
  for (const row of rows) {
    const hour = hourOfStored(row.ts);
    const tokens = row.input_tokens + row.output_tokens;
    if (row.chat_id) add('chat', row.chat_id, hour, tokens, row.cost_usd);
    if (row.user_id) add('user', row.user_id, hour, tokens, row.cost_usd);
    if (row.feature) add('feature', row.feature, hour, tokens, row.cost_usd);
  }
  return sortedValues(sums);
}

const CHUNK = 200;

export async function upsertLimitUsage(db: Executor, sums: UsageSum[]): Promise<void> {
  for (let i = 0; i < sums.length; i += CHUNK) {
    await db
      .insertInto('limit_usage')
      .values(sums.slice(i, i + CHUNK))
      .onConflict((oc) =>
        oc.columns(['kind', 'subject', 'grain', 'bucket']).doUpdateSet({
          requests: sql`limit_usage.requests + excluded.requests`,
          tokens: sql`limit_usage.tokens + excluded.tokens`,
          cost_usd: sql`limit_usage.cost_usd + excluded.cost_usd`,
        }),
      )
      .execute();
  }
}

/** A subject's sums over the hour buckets from `from` (inclusive) to `to` (exclusive), ISO bucket names. */
export interface SubjectUsage {
  requests: number;
  tokens: number;
  cost_usd: number;
}

export async function readUsage(
  db: Executor,
  kind: UsageKind,
  subject: string,
  from: string,
  to: string,
): Promise<SubjectUsage> {
  const usage = await db
    .selectFrom('limit_usage')
    .select((eb) => [
      eb.fn.sum<number | string | null>('requests').as('requests'),
      eb.fn.sum<number | string | null>('tokens').as('tokens'),
      eb.fn.sum<number | null>('cost_usd').as('cost_usd'),
    ])
    .where('kind', '=', kind)
    .where('subject', '=', subject)
    .where('grain', '=', 'hour')
    .where('bucket', '>=', from)
    .where('bucket', '<', to)
    .executeTakeFirstOrThrow();
  return {
    requests: Number(usage.requests ?? 0),
    tokens: Number(usage.tokens ?? 0),
    cost_usd: Number(usage.cost_usd ?? 0),
  };
}

/**
 * A subject's stored usage from the hour `from` on: summed up to the hour `cut` (a row whose bucket is null),
 * and per hour from `cut` on. So a subject active in every hour of its month reads a few rows, not 720.
 */
const usageRowsQuery = new ReusableQuery(
  4,
  (db, kind: UsageKind, subject: string, from: string, cut: string) => {
    const hoursOf = () =>
      db
        .selectFrom('limit_usage')
        .where('kind', '=', kind)
        .where('subject', '=', subject)
        .where('grain', '=', 'hour');
    return hoursOf()
      .select((eb) => [
        sql<string>`null`.as('bucket'),
        eb.fn.sum<number | string>('requests').as('requests'),
        eb.fn.sum<number | string>('tokens').as('tokens'),
        eb.fn.sum<number>('cost_usd').as('cost_usd'),
      ])
      .where('bucket', '>=', from)
      .where('bucket', '<', cut)
      .unionAll(hoursOf().select(['bucket', 'requests', 'tokens', 'cost_usd']).where('bucket', '>=', cut));
  },
);

type UsageQueryRow = { bucket: string | null } & Record<
  'requests' | 'tokens' | 'cost_usd',
  number | string | null
>;

/** A row read for a subject, in numbers. */
const usageRow = (kind: UsageKind, subject: string, row: UsageQueryRow) => ({
  kind,
  subject,
  bucket: row.bucket,
  requests: Number(row.requests ?? 0),
  tokens: Number(row.tokens ?? 0),
  cost_usd: Number(row.cost_usd ?? 0),
});

/** The rows read for each subject (SQLite, one run each), named by subject, in numbers. */
function usageOf(subjects: { kind: UsageKind; subject: string }[], read: UsageQueryRow[][]) {
  return subjects.flatMap(({ kind, subject }, i) => read[i]!.map((row) => usageRow(kind, subject, row)));
}

const usageRuns = (subjects: { kind: UsageKind; subject: string }[], from: string, cut: string) =>
  subjects.map(({ kind, subject }): [UsageKind, string, string, string] => [kind, subject, from, cut]);

/**
 * Subjects' usage from the hour `from` on: for each, its sum up to the hour `cut` (`bucket` null) and its
 * hours from `cut` on, read at once on SQLite (`ReusableQuery.executeNow`); undefined where they cannot be.
 */
export function limitUsageRowsNow(
  db: Kysely<Database>,
  subjects: { kind: UsageKind; subject: string }[],
  from: string,
  cut: string,
) {
  if (isPostgres(db)) return undefined;
  const read = usageRowsQuery.executeNowEach(db, usageRuns(subjects, from, cut));
  return read && usageOf(subjects, read);
}

/**
 * Subjects' usage from the hour `from` on (read on `on`, `db` or a transaction of it), as
 * `limitUsageRowsNow` says, on SQLite: each looked up in turn. PostgreSQL reads it with the grants and the
 * minute's calls in one statement (limitUsagePartsPostgres).
 */
export async function limitUsageRows(
  db: Kysely<Database>,
  subjects: { kind: UsageKind; subject: string }[],
  from: string,
  cut: string,
  on: Executor = db,
) {
  return usageOf(subjects, await usageRowsQuery.executeEach(db, usageRuns(subjects, from, cut), on));
}

/**
 * A row of a group statement of the allowance on PostgreSQL (modules/limits, usage-rows.repository.ts):
 * `part` says what it holds: `usage` an hour's sums or, with `bucket` null, the sums up to the cut; `grants`
 * the calls the allowance admitted, in `requests`; `chat` or `user` the subject's calls since the minute's
 * start; `taken` a refused check of a group of grants.
 */
export interface UsagePartRow {
  part: 'usage' | 'grants' | 'chat' | 'user' | 'taken';
  kind: UsageKind;
  subject: string;
  grain: UsageGrain | null;
  bucket: string | null;
  requests: number | string | null;
  tokens: number | string | null;
  cost_usd: number | null;
}

/**
 * PostgreSQL: the parts of a group read that this store answers, over the relation `subjects` (kind,
 * subject, recent): each subject's usage from the hour `from` on, as `limitUsageRows` says, and the calls
 * since `minute` of the chats and users whose `recent` is set (a lookup of the chat or user index each; the
 * minute is a subquery's value, so the time index, which the newest minute would look cheap on, is not
 * taken: modules/limits, grantPartPostgres, says why).
 */
export function limitUsagePartsPostgres(
  subjects: string,
  from: string,
  cut: string,
  minute: string,
): RawBuilder<UsagePartRow>[] {
  const s = sql.table(subjects);
  const usage = sql<UsagePartRow>`
    select 'usage' as part, s.kind, s.subject, null::text as grain, u.bucket, u.requests, u.tokens,
      u.cost_usd
    from ${s} as s
    join lateral (
      select null::text as bucket, sum(requests) as requests, sum(tokens) as tokens,
        sum(cost_usd) as cost_usd
      from limit_usage
      where kind = s.kind and subject = s.subject and grain = 'hour' and bucket >= ${from}
        and bucket < ${cut}
      union all
      select bucket, requests, tokens, cost_usd from limit_usage
      where kind = s.kind and subject = s.subject and grain = 'hour' and bucket >= ${cut}
    ) u on true`;
  const recent = (kind: 'chat' | 'user') => sql<UsagePartRow>`
    select ${sql.lit(kind)}, s.kind, s.subject, null, null, r.requests, r.tokens, r.cost_usd
    from ${s} as s
    join lateral (
      select count(*) as requests, sum(input_tokens + output_tokens) as tokens, sum(cost_usd) as cost_usd
      from llm_calls where ${sql.ref(kind === 'chat' ? 'chat_id' : 'user_id')} = s.subject
        and ts >= (select ${minute}::text)
    ) r on true
    where s.kind = ${sql.lit(kind)} and s.recent`;
  return [usage, recent('chat'), recent('user')];
}

/**
 * SQLite reads a chat's or a user's recent calls from their lookup table (llm-call-lookups.repository.ts),
 * which holds each call's tokens and cost.
 */
const recentSums = (eb: ExpressionBuilder<Database, 'llm_call_chats' | 'llm_call_users'>) => [
  eb.fn.countAll<number | string>().as('requests'),
  eb.fn.sum<number | string | null>('tokens').as('tokens'),
  eb.fn.sum<number | null>('cost_usd').as('cost_usd'),
];
const RECENT = {
  chat: new ReusableQuery(2, (db, subject: string, from: string) =>
    db.selectFrom('llm_call_chats').select(recentSums).where('chat_id', '=', subject).where('ts', '>=', from),
  ),
  user: new ReusableQuery(2, (db, subject: string, from: string) =>
    db.selectFrom('llm_call_users').select(recentSums).where('user_id', '=', subject).where('ts', '>=', from),
  ),
};

type RecentRow = { requests: number | string; tokens: number | string | null; cost_usd: number | null };

/** The minute's sums by subject, in numbers. */
function recentOf(subjects: string[], read: (RecentRow | undefined)[]) {
  return new Map(
    subjects.map((subject, i) => {
      const row = read[i];
      const sums = {
        requests: Number(row?.requests ?? 0),
        tokens: Number(row?.tokens ?? 0),
        cost_usd: Number(row?.cost_usd ?? 0),
      };
      return [subject, sums];
    }),
  );
}

/**
 * Cost and tokens of chats' or users' calls since `from` (a minute window), read from their lookup at
 * once on SQLite (`ReusableQuery.executeNow`); undefined where they cannot be.
 */
export function recentCallsNow(
  db: Kysely<Database>,
  kind: 'chat' | 'user',
  subjects: string[],
  from: string,
) {
  if (isPostgres(db)) return undefined;
  const read = RECENT[kind].executeNowEach(db, recentRuns(subjects, from));
  return (
    read &&
    recentOf(
      subjects,
      read.map(([row]) => row),
    )
  );
}

const recentRuns = (subjects: string[], from: string) =>
  subjects.map((subject): [string, string] => [subject, from]);

/**
 * Cost and tokens of chats' or users' calls since `from` (a minute window), by subject, on SQLite: from
 * their lookups, one after another. PostgreSQL reads them with the rest of a group read in one statement
 * (limitUsagePartsPostgres).
 */
export async function recentCalls(
  db: Kysely<Database>,
  kind: 'chat' | 'user',
  subjects: string[],
  from: string,
  on: Executor = db,
) {
  const read = await RECENT[kind].executeEach(db, recentRuns(subjects, from), on);
  return recentOf(
    subjects,
    read.map(([row]) => row),
  );
}

/** The subjects with the highest usage of one metric over whole hours, for "who is near it". */
export async function topSubjects(
  db: Executor,
  kind: UsageKind,
  metric: LimitMetric,
  from: string,
  to: string,
  limit: number,
): Promise<{ subject: string; used: number }[]> {
  const column = metric === 'tokens' ? 'tokens' : metric === 'requests' ? 'requests' : 'cost_usd';
  return topOverHours(db, { table: 'limit_usage', column }, kind, from, to, limit);
}

/** As topSubjects, for the current minute: the calls since `from`, read through the time index. */
export async function topRecentSubjects(
  db: Executor,
  kind: 'chat' | 'user',
  metric: LimitMetric,
  from: string,
  limit: number,
): Promise<{ subject: string; used: number }[]> {
  const column = kind === 'chat' ? 'chat_id' : 'user_id';
  const used =
    metric === 'requests'
      ? sql<number | string>`count(*)`
      : metric === 'tokens'
        ? sql<number | string>`sum(input_tokens + output_tokens)`
        : sql<number | string>`sum(cost_usd)`;
  const rows = await db
    .selectFrom('llm_calls')
    .select([sql<string>`${sql.ref(column)}`.as('subject'), used.as('used')])
    .where('ts', '>=', from)
    .where(column, 'is not', null)
    .groupBy(column)
    .orderBy('used', 'desc')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ subject: row.subject, used: Number(row.used) }));
}

/** How long the limits' usage is kept: the longest window, a month, and a day to spare. */
export const LIMIT_USAGE_KEEP_DAYS = 32;

/** Removes the usage of hours before `before` (an ISO bucket name). */
export async function pruneLimitUsage(db: Executor, before: string): Promise<number> {
  const result = await db.deleteFrom('limit_usage').where('bucket', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
