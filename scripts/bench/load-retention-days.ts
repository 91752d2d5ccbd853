/**
 * The retention benchmark's generator (`npm run bench`, part `retention`, run through tsx): loads
 * BENCH_RETENTION_EVENTS_PER_DAY llm_call rows per UTC day into a scratch database, for one day past a
 * BENCH_RETENTION_DAYS retention and BENCH_RETENTION_DAYS days inside it. The database writes the rows
 * itself (generate_series on PostgreSQL, a recursive CTE on SQLite), in time order, without rollups: the
 * retention run reads only raw rows. On PostgreSQL the day partitions are created first. Prints one JSON
 * line with what it loaded; progress goes to stderr.
 *
 * Environment: BENCH_RETENTION_EVENTS_PER_DAY, BENCH_RETENTION_DAYS, and BENCH_SQLITE_FILE or
 * BENCH_DATABASE_URL (a scratch database).
 */
import { sql } from 'kysely';
import { utcDay } from '../../apps/server/src/db/event-partitions.js';
import { LLM_MODELS } from '../demo/simulated-bot.mjs';
import { createProgress } from '../lib/progress.mjs';
import { createDayPartitions, DAY_MS, openScratch, SERIES_SQL } from './scratch-db.js';

/** Rows per INSERT … SELECT: a transaction of its own, and a progress step. */
const CHUNK = 250_000;

const perDay = Number(process.env.BENCH_RETENTION_EVENTS_PER_DAY ?? 1_000_000);
const retentionDays = Number(process.env.BENCH_RETENTION_DAYS ?? 30);
for (const [name, value] of [
  ['BENCH_RETENTION_EVENTS_PER_DAY', perDay],
  ['BENCH_RETENTION_DAYS', retentionDays],
] as const) {
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer`);
}

/**
 * The server prunes what is older than now − retentionDays. The oldest day loaded is today − (retention + 1),
 * which ends before that instant however late today it is, so PostgreSQL drops its partition whole. The day
 * after it, today − retention, straddles the instant: SQLite would delete its morning, PostgreSQL would keep
 * it whole until tomorrow. It is left empty, so both databases remove exactly the oldest day; the days kept
 * are today − (retention − 1) to today.
 */
function loadedDays(now: number): string[] {
  const today = Date.parse(utcDay(now));
  const kept = Array.from({ length: retentionDays }, (_, i) =>
    utcDay(today - (retentionDays - 1 - i) * DAY_MS),
  );
  return [utcDay(today - (retentionDays + 1) * DAY_MS), ...kept];
}

const models = LLM_MODELS as { provider: string; model: string }[];
/** Row `i`'s provider or model, cycling through the demo bot's models. */
const pick = (field: 'provider' | 'model') =>
  `CASE i % ${models.length} ${models.map((m, k) => `WHEN ${k} THEN '${m[field]}'`).join(' ')} END`;

/** Rows `from` to `to` (exclusive) of a day's `perDay`, evenly spread over it, in time order. */
function insertRows(dialect: keyof typeof SERIES_SQL, day: string, from: number, to: number) {
  const d = SERIES_SQL[dialect];
  const ms = `(${Date.parse(day)} + i * ${DAY_MS} / ${perDay})`;
  const input = '(300 + (i * 7919) % 2500)';
  const output = '(50 + (i * 104729) % 600)';
  return sql.raw(`INSERT INTO llm_calls (client_id, ts, provider, model, input_tokens, output_tokens,
      cost_usd, cost_computed, latency_ms, cached, success)
    SELECT 'ret-${day}-' || ${d.padded}, ${d.iso(ms)}, ${pick('provider')}, ${pick('model')}, ${input}, ${output},
      (${input} * 0.3 + ${output} * 1.2) / 1000000.0, 0, 200 + i % 1500,
      CASE WHEN i % 9 = 0 THEN 1 ELSE 0 END, CASE WHEN i % 67 = 0 THEN 0 ELSE 1 END
    FROM ${d.series(from, to)}`);
}

async function main() {
  const { handle, sqlite } = await openScratch();
  const { db } = handle;
  const days = loadedDays(Date.now());
  await createDayPartitions(handle, Date.parse(days[0]!), Date.parse(days.at(-1)!));

  const total = perDay * days.length;
  const progress = createProgress({
    label: `Loading ${perDay.toLocaleString('en')} llm_call rows a day for ${days.length} days`,
  });
  const began = Date.now();
  let done = 0;
  // One connection throughout, so the setting below holds for every insert.
  await db.connection().execute(async (connection) => {
    if (handle.dialect === 'postgres') await sql`SET synchronous_commit = off`.execute(connection);
    for (const day of days) {
      for (let from = 0; from < perDay; from += CHUNK) {
        const to = Math.min(perDay, from + CHUNK);
        await insertRows(handle.dialect, day, from, to).execute(connection);
        done += to - from;
        const rate = Math.round(done / ((Date.now() - began) / 1000));
        progress.update(done / total, `${done.toLocaleString('en')} rows, ${rate.toLocaleString('en')}/s`);
      }
    }
  });
  const loadSeconds = (Date.now() - began) / 1000;
  progress.finish(
    `Loaded ${total.toLocaleString('en')} llm_call rows over ${days.length} days in ${loadSeconds.toFixed(1)} s ` +
      `(${Math.round(total / loadSeconds).toLocaleString('en')} rows/s).`,
  );

  const counted = await db
    .selectFrom('llm_calls')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  if (Number(counted.n) !== total) throw new Error(`${counted.n} rows stored, ${total} loaded`);
  if (sqlite) sqlite.pragma('wal_checkpoint(TRUNCATE)');
  await db.destroy();
  process.stdout.write(
    `${JSON.stringify({ events: total, days: days.length, oldestDay: days[0], loadSeconds })}\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(
    `\nLoading failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
