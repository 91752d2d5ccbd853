/**
 * The benchmark's generator (`npm run bench`, run through tsx): loads BENCH_EVENTS llm_call events, spread
 * over the last 29 days (inside the default 30-day retention, so the server prunes none of them at start),
 * with their hourly rollups (and the minute rollups of the last two days, the ones retention keeps), into a
 * scratch database. Not through HTTP: raw rows go in with the driver in large transactions, and each
 * chunk's rollups are summed and upserted in the same transaction by the server's own code
 * (aggregateLlmCalls, upsertLlmUsage), exactly as ingestion does. On PostgreSQL the day
 * partitions of those days are created first. Prints one JSON line with what it loaded; progress goes to
 * stderr.
 *
 * Environment: BENCH_EVENTS (count), and BENCH_SQLITE_FILE or BENCH_DATABASE_URL (a scratch database).
 */
import type SQLite from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../apps/server/src/db/database.js';
import { aggregateLlmCalls } from '../../apps/server/src/modules/telemetry/rollup-aggregation.js';
import { upsertLlmUsage } from '../../apps/server/src/modules/telemetry/rollups.repository.js';
import type { RawRow } from '../../apps/server/src/modules/telemetry/telemetry.repository.js';
import { LLM_MODELS } from '../demo/simulated-bot.mjs';
import { createProgress } from '../lib/progress.mjs';
import { createDayPartitions, DAY_MS, openScratch } from './scratch-db.js';

type Row = RawRow<'llm_calls'> & { client_id: string };
interface Model {
  provider: string;
  model: string;
  share: number;
  input: [number, number];
  output: [number, number];
  latency: [number, number];
  price?: { input_usd_per_million: number; output_usd_per_million: number };
  botCost?: { input: number; output: number };
}

const SPAN_MS = 29 * DAY_MS;
/** Events per transaction: large enough to amortise the commit, small enough to keep the WAL modest. */
const CHUNK = 100_000;
/** Rows per INSERT: SQLite allows 32,766 bound parameters, each row has 11. */
const SQLITE_ROWS_PER_INSERT = 200;
const POSTGRES_ROWS_PER_INSERT = 10_000;
/** Rollup rows per upsert (12 parameters each), within SQLite's limit as above. */
const ROLLUPS_PER_UPSERT = 1_000;
/** The minute rollups retention keeps (telemetry.service.ts): older ones would be pruned at the start. */
const MINUTES_KEPT_MS = 2 * DAY_MS;

const COLUMNS = [
  'client_id',
  'ts',
  'provider',
  'model',
  'input_tokens',
  'output_tokens',
  'cost_usd',
  'cost_computed',
  'latency_ms',
  'cached',
  'success',
] as const;

const total = Number(process.env.BENCH_EVENTS ?? 10_000_000);
if (!Number.isInteger(total) || total < 1) throw new Error('BENCH_EVENTS must be a positive integer');

const models = LLM_MODELS as Model[];
const shares = models.reduce((sum, m) => sum + m.share, 0);
const pickModel = (roll: number): Model => {
  let left = roll * shares;
  for (const model of models) {
    left -= model.share;
    if (left < 0) return model;
  }
  return models.at(-1)!;
};
const within = ([low, high]: [number, number]) => low + Math.round((high - low) * Math.random());

/** Events `from` to `to` (exclusive) of the run, evenly spread in time from `start`, in time order. */
function generate(from: number, to: number, start: number): Row[] {
  const step = SPAN_MS / total;
  const rows: Row[] = [];
  for (let i = from; i < to; i += 1) {
    const model = pickModel(Math.random());
    const success = Math.random() >= 0.015;
    const input = success ? within(model.input) : 0;
    const output = success ? within(model.output) : 0;
    const rate = model.price
      ? [model.price.input_usd_per_million, model.price.output_usd_per_million]
      : [model.botCost!.input, model.botCost!.output];
    rows.push({
      client_id: `bench-${String(i).padStart(10, '0')}`,
      ts: new Date(start + Math.floor((i + Math.random()) * step)).toISOString(),
      provider: model.provider,
      model: model.model,
      input_tokens: input,
      output_tokens: output,
      cost_usd: (input * rate[0]! + output * rate[1]!) / 1_000_000,
      cost_computed: 0,
      latency_ms: within(model.latency),
      cached: Math.random() < 0.12 ? 1 : 0,
      success: success ? 1 : 0,
    });
  }
  return rows;
}

function sqliteInserter(sqlite: SQLite.Database) {
  const statement = (count: number) =>
    sqlite.prepare(
      `INSERT INTO llm_calls (${COLUMNS.join(', ')}) VALUES ${Array(count)
        .fill(`(${COLUMNS.map(() => '?').join(', ')})`)
        .join(', ')}`,
    );
  const full = statement(SQLITE_ROWS_PER_INSERT);
  return (rows: Row[]) => {
    for (let i = 0; i < rows.length; i += SQLITE_ROWS_PER_INSERT) {
      const part = rows.slice(i, i + SQLITE_ROWS_PER_INSERT);
      const values = part.flatMap((row) => COLUMNS.map((column) => row[column]));
      (part.length === SQLITE_ROWS_PER_INSERT ? full : statement(part.length)).run(values);
    }
  };
}

/** PostgreSQL: one INSERT … SELECT FROM unnest(arrays) per 10,000 rows. */
async function postgresInsert(db: Kysely<Database>, rows: Row[]) {
  for (let i = 0; i < rows.length; i += POSTGRES_ROWS_PER_INSERT) {
    const part = rows.slice(i, i + POSTGRES_ROWS_PER_INSERT);
    const col = <K extends (typeof COLUMNS)[number]>(name: K) => part.map((row) => row[name]);
    await sql`
      INSERT INTO llm_calls (client_id, ts, provider, model, input_tokens, output_tokens, cost_usd,
        cost_computed, latency_ms, cached, success)
      SELECT * FROM unnest(${col('client_id')}::text[], ${col('ts')}::text[], ${col('provider')}::text[],
        ${col('model')}::text[], ${col('input_tokens')}::int[], ${col('output_tokens')}::int[],
        ${col('cost_usd')}::float8[], ${col('cost_computed')}::int[], ${col('latency_ms')}::float8[],
        ${col('cached')}::int[], ${col('success')}::int[])`.execute(db);
  }
}

async function main() {
  const { handle, sqlite } = await openScratch();
  const { db } = handle;
  const insertSqlite = sqlite ? sqliteInserter(sqlite) : null;

  const start = Date.now() - SPAN_MS - 60_000;
  const minutesKeptFrom = new Date(Date.now() - MINUTES_KEPT_MS).toISOString();
  await createDayPartitions(handle, start, Date.now());
  const progress = createProgress({ label: `Loading ${total.toLocaleString('en')} llm_call events` });
  const began = Date.now();
  for (let from = 0; from < total; from += CHUNK) {
    const rows = generate(from, Math.min(total, from + CHUNK), start);
    await db.transaction().execute(async (trx) => {
      if (handle.dialect === 'postgres') {
        await sql`SET LOCAL synchronous_commit = off`.execute(trx);
        await postgresInsert(trx, rows);
      } else {
        // The same connection as trx (SQLite has one), so these rows are inside its transaction.
        insertSqlite!(rows);
      }
      // A chunk of a small run spans every hour of the month: keep each upsert within SQLite's parameters.
      const recent = rows.filter((row) => row.ts >= minutesKeptFrom);
      for (const [grain, stored] of [
        ['hour', rows],
        ['minute', recent],
      ] as const) {
        const rollups = aggregateLlmCalls(stored, grain);
        for (let i = 0; i < rollups.length; i += ROLLUPS_PER_UPSERT) {
          await upsertLlmUsage(trx, grain, rollups.slice(i, i + ROLLUPS_PER_UPSERT));
        }
      }
    });
    const done = from + rows.length;
    const rate = Math.round(done / ((Date.now() - began) / 1000));
    progress.update(done / total, `${done.toLocaleString('en')} events, ${rate.toLocaleString('en')}/s`);
  }
  const loadSeconds = (Date.now() - began) / 1000;
  progress.finish(
    `Loaded ${total.toLocaleString('en')} llm_call events and their rollups in ${loadSeconds.toFixed(1)} s ` +
      `(${Math.round(total / loadSeconds).toLocaleString('en')} events/s).`,
  );

  // Consistency: the rollups add up to the raw events.
  const raw = await db
    .selectFrom('llm_calls')
    .select((eb) => [
      eb.fn.countAll<number | string>().as('n'),
      eb.fn.sum<number | string>(eb('input_tokens', '+', eb.ref('output_tokens'))).as('tokens'),
    ])
    .executeTakeFirstOrThrow();
  const rolled = await db
    .selectFrom('llm_usage_hourly')
    .select((eb) => [
      eb.fn.countAll<number | string>().as('rows'),
      eb.fn.sum<number | string>('requests').as('n'),
      eb.fn.sum<number | string>(eb('input_tokens', '+', eb.ref('output_tokens'))).as('tokens'),
    ])
    .executeTakeFirstOrThrow();
  const consistent = Number(raw.n) === Number(rolled.n) && Number(raw.tokens) === Number(rolled.tokens);
  if (!consistent) throw new Error(`Rollups do not match the events: ${JSON.stringify({ raw, rolled })}`);

  if (handle.dialect === 'postgres') {
    await sql`ANALYZE`.execute(db);
  } else {
    sqlite!.pragma('wal_checkpoint(TRUNCATE)');
    await sql`ANALYZE`.execute(db);
  }
  await db.destroy();
  process.stdout.write(
    `${JSON.stringify({ events: Number(raw.n), rollupRows: Number(rolled.rows), loadSeconds })}\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(
    `\nLoading failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
