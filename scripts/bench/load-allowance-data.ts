/**
 * The allowance benchmark's generator (`npm run bench`, part `allowance`, run through tsx): loads the usage
 * of BENCH_ALLOWANCE_CHATS chats and BENCH_ALLOWANCE_USERS users in the current UTC month into limit_usage
 * (one row each, in an hour of the month; allowance-workload.mjs says how much), the features' usage for
 * every hour of the month, and BENCH_ALLOWANCE_LIMITS − 1 limits: the shared ones but the last (which the part
 * creates through the API) and one of its own on each of BENCH_ALLOWANCE_LIMITS − 10 chats. The database
 * writes the chats' and users' rows itself (generate_series on PostgreSQL, a recursive CTE on SQLite), and the
 * grants of the month's past hours from them (limit_grants: one per usage row before the current hour, and one
 * in a minute of that hour for a chat's). Prints
 * one JSON line with what it loaded; progress goes to stderr.
 *
 * Environment: BENCH_ALLOWANCE_CHATS, BENCH_ALLOWANCE_USERS, BENCH_ALLOWANCE_LIMITS, and BENCH_SQLITE_FILE or
 * BENCH_DATABASE_URL (a scratch database).
 */
import { sql, type Insertable } from 'kysely';
import type { LimitsTable } from '../../apps/server/src/db/limit-tables.js';
import { createProgress } from '../lib/progress.mjs';
import {
  CHAT_BASE,
  chatId,
  chatLimit,
  FEATURES,
  limitedChat,
  OVER_DAY_CHAT,
  OVER_MONTH_USER,
  SHARED_LIMITS,
  USER_BASE,
} from './allowance-workload.mjs';
import { openScratch, SERIES_SQL } from './scratch-db.js';

/** Rows per INSERT … SELECT: a transaction of its own, and a progress step. */
const CHUNK = 250_000;
const HOUR_MS = 3600 * 1000;

function setting(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer`);
  return value;
}
const chats = setting('BENCH_ALLOWANCE_CHATS', 1_000_000);
const users = setting('BENCH_ALLOWANCE_USERS', 100_000);
const limits = setting('BENCH_ALLOWANCE_LIMITS', 10_000);
const ownLimits = limits - SHARED_LIMITS.length;
if (ownLimits < 1 || ownLimits > chats) {
  throw new Error(`BENCH_ALLOWANCE_LIMITS must be above ${SHARED_LIMITS.length} and leave a chat per limit`);
}

const now = Date.now();
const currentHour = Math.floor(now / HOUR_MS) * HOUR_MS;
const monthStart = Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth(), 1);
/** The hours of the month so far, the current one included: row i lands in the hour i % hours before now. */
const hours = (currentHour - monthStart) / HOUR_MS + 1;

/**
 * Rows `from` to `to` (exclusive) of the chats' or users' usage. A subject's hour is `i % hours` hours before
 * the current one, but the chats over their daily cost spent it in the current hour.
 */
function insertUsage(dialect: keyof typeof SERIES_SQL, kind: 'chat' | 'user', from: number, to: number) {
  const d = SERIES_SQL[dialect];
  const spread = `${currentHour} - (i % ${hours}) * ${HOUR_MS}`;
  const overDay = `i % ${OVER_DAY_CHAT.every} = ${OVER_DAY_CHAT.at}`;
  const overMonth = `i % ${OVER_MONTH_USER.every} = ${OVER_MONTH_USER.at}`;
  const columns =
    kind === 'chat'
      ? {
          subject: `'-100' || (${CHAT_BASE} + i)`,
          bucket: `CASE WHEN ${overDay} THEN ${currentHour} ELSE ${spread} END`,
          requests: '1 + i % 19',
          tokens: '(1 + i % 19) * 800',
          cost: `CASE WHEN ${overDay} THEN 2.0 ELSE (i % 97) / 200.0 END`,
        }
      : {
          subject: `'' || (${USER_BASE} + i)`,
          bucket: spread,
          requests: '1 + i % 50',
          tokens: `CASE WHEN ${overMonth} THEN 500000 ELSE (1 + i % 50) * 1000 END`,
          cost: `CASE WHEN ${overMonth} THEN 1.0 ELSE (1 + i % 50) * 0.002 END`,
        };
  return sql.raw(`INSERT INTO limit_usage (kind, subject, grain, bucket, requests, tokens, cost_usd)
    SELECT '${kind}', ${columns.subject}, 'hour', ${d.iso(`(${columns.bucket})`)}, ${columns.requests},
      ${columns.tokens}, ${columns.cost}
    FROM ${d.series(from, to)}`);
}

/** The limits loaded with SQL: the shared ones but the last, then one on each limited chat. */
function limitRows(): Insertable<LimitsTable>[] {
  const at = new Date(now).toISOString();
  const stamp = { raise_amount: null, raise_until: null, note: 'bench', created_at: at, updated_at: at };
  const shared = SHARED_LIMITS.slice(0, -1).map((limit) => ({
    ...stamp,
    ...limit,
    subject: limit.subject ?? '',
  }));
  const own = Array.from({ length: ownLimits }, (_, k) => ({
    ...stamp,
    scope: 'chat' as const,
    subject: chatId(limitedChat(k, chats, ownLimits)),
    mode: 'hard' as const,
    ...chatLimit(k),
  }));
  return [...shared, ...own];
}

async function main() {
  const { handle, sqlite } = await openScratch();
  const { db } = handle;
  const total = chats + users;
  const progress = createProgress({
    label: `Loading the usage of ${chats.toLocaleString('en')} chats and ${users.toLocaleString('en')} users`,
  });
  const began = Date.now();
  let done = 0;
  // One connection throughout, so the setting below holds for every insert.
  await db.connection().execute(async (connection) => {
    if (handle.dialect === 'postgres') await sql`SET synchronous_commit = off`.execute(connection);
    for (const [kind, count] of [
      ['chat', chats],
      ['user', users],
    ] as const) {
      for (let from = 0; from < count; from += CHUNK) {
        const to = Math.min(count, from + CHUNK);
        await insertUsage(handle.dialect, kind, from, to).execute(connection);
        done += to - from;
        progress.update(done / total, `${done.toLocaleString('en')} rows`);
      }
    }
    const featureRows = FEATURES.flatMap((feature) =>
      Array.from({ length: hours }, (_, h) => ({
        kind: 'feature' as const,
        subject: feature,
        grain: 'hour' as const,
        bucket: new Date(monthStart + h * HOUR_MS).toISOString(),
        requests: 10_000,
        tokens: 8_000_000,
        cost_usd: 8,
      })),
    );
    for (let i = 0; i < featureRows.length; i += 1_000) {
      await connection
        .insertInto('limit_usage')
        .values(featureRows.slice(i, i + 1_000))
        .execute();
    }
    // The allowance admitted the calls of the month's past hours, as it would have in a real month: the
    // grants table is as large as the usage's, and ANALYZE below sees it so (a table analyzed while empty
    // leaves PostgreSQL's planner guessing which index finds a subject's grants).
    const pastHours = new Date(currentHour).toISOString();
    await sql`INSERT INTO limit_grants (kind, subject, grain, bucket, granted)
      SELECT kind, subject, grain, bucket, requests FROM limit_usage
      WHERE bucket < ${pastHours}`.execute(connection);
    // A chat's calls of an hour went in one of its minutes (the chats have a limit by the minute).
    const minute =
      handle.dialect === 'postgres'
        ? sql`lpad((right(subject, 2)::int % 60)::text, 2, '0')`
        : sql`printf('%02d', CAST(substr(subject, -2) AS INTEGER) % 60)`;
    await sql`INSERT INTO limit_grants (kind, subject, grain, bucket, granted)
      SELECT kind, subject, 'minute', substr(bucket, 1, 14) || ${minute} || ':00.000Z', requests
      FROM limit_usage WHERE kind = 'chat' AND bucket < ${pastHours}`.execute(connection);
    const rows = limitRows();
    for (let i = 0; i < rows.length; i += 500) {
      await connection
        .insertInto('limits')
        .values(rows.slice(i, i + 500))
        .execute();
    }
  });
  const loadSeconds = (Date.now() - began) / 1000;

  const [usage, stored] = await Promise.all([
    db
      .selectFrom('limit_usage')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('limits')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  const usageRows = Number(usage.n);
  if (usageRows !== total + FEATURES.length * hours) {
    throw new Error(`${usageRows} usage rows stored, ${total + FEATURES.length * hours} loaded`);
  }
  const limitCount = Number(stored.n);
  progress.finish(
    `Loaded ${usageRows.toLocaleString('en')} usage rows and ${limitCount.toLocaleString('en')} limits in ` +
      `${loadSeconds.toFixed(1)} s.`,
  );
  if (sqlite) sqlite.pragma('wal_checkpoint(TRUNCATE)');
  await sql`ANALYZE`.execute(db);
  await db.destroy();
  process.stdout.write(`${JSON.stringify({ usageRows, limits: limitCount, hours, loadSeconds })}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `\nLoading failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
