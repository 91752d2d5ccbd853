/**
 * The benchmark's generator (`npm run bench`, run through tsx): loads BENCH_EVENTS llm_call events, spread
 * over the last 29 days (inside the default 30-day retention, so the server prunes none of them at start),
 * with their hourly rollups (and the minute rollups of the last two days, the ones retention keeps), into a
 * scratch database. The calls carry the per-call dimensions (docs/operators/metrics.md): a chat and a user drawn from long tails (CHATS
 * chats, USERS users, a few of them spending most), one of several features (or none), and an error type
 * on most failures. Beside them, an integration call every INTEGRATION_EVERY llm_calls over four services.
 * Not through HTTP: raw rows go in with the driver in large transactions, and each chunk's rollups (usage,
 * latency histograms, dimensions) are summed and upserted in the same transaction by the server's own code,
 * exactly as ingestion does; then every finished day's chats and users are folded to their top 1,000 as
 * the housekeeping job does. On PostgreSQL the day partitions of those days are created first. Prints one
 * JSON line with what it loaded; progress goes to stderr.
 *
 * Environment: BENCH_EVENTS (count), and BENCH_SQLITE_FILE or BENCH_DATABASE_URL (a scratch database).
 */
import type SQLite from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../apps/server/src/db/database.js';
import { LLM_TOP_PER_DAY } from '@lumi/contract';
import {
  insertEvents,
  type RawRow,
} from '../../apps/server/src/modules/telemetry-store/events.repository.js';
import { LATENCY_KINDS } from '../../apps/server/src/modules/telemetry-store/latency-histograms.js';
import {
  daysToFold,
  foldLatencyDay,
  upsertLatencies,
} from '../../apps/server/src/modules/telemetry-store/latency.repository.js';
import {
  aggregateLlmDimensions,
  type SpendKind,
} from '../../apps/server/src/modules/telemetry-store/llm-dimensions.js';
import {
  daysOverBound,
  foldDay,
  SPEND_TABLES,
  upsertDimensionSums,
} from '../../apps/server/src/modules/telemetry-store/llm-dimensions.repository.js';
import {
  aggregateIntegrationCalls,
  aggregateLlmCalls,
} from '../../apps/server/src/modules/telemetry-store/rollup-aggregation.js';
import {
  upsertIntegrations,
  upsertLlmUsage,
} from '../../apps/server/src/modules/telemetry-store/rollups.repository.js';
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
/** Rows per INSERT: SQLite allows 32,766 bound parameters, each row has 15. */
const SQLITE_ROWS_PER_INSERT = 200;
const POSTGRES_ROWS_PER_INSERT = 10_000;
/** Rollup rows per upsert (12 parameters each), within SQLite's limit as above. */
const ROLLUPS_PER_UPSERT = 1_000;
/** The minute rollups retention keeps (telemetry-store/retention.service.ts): older ones would be pruned at the start. */
const MINUTES_KEPT_MS = 2 * DAY_MS;

const CHATS = 5_000;
const USERS = 20_000;
/** The features and their shares; the rest of the calls name none. */
const FEATURES: [string, number][] = [
  ['reply', 0.55],
  ['summarize', 0.15],
  ['digest', 0.1],
  ['translate', 0.08],
  ['moderation', 0.07],
];
/** The error types of failed calls; the rest report none (counted as unknown). */
const ERROR_TYPES: [string, number][] = [
  ['timeout', 0.4],
  ['rate_limit', 0.3],
  ['server_error', 0.15],
  ['content_filter', 0.1],
];
const INTEGRATION_EVERY = 10;
const SERVICES = ['binance', 'coingecko', 'openweather', 'telegram'];

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
  'chat_id',
  'user_id',
  'feature',
  'error_type',
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
/** One of `choices` by share, or null for the rest. */
function pick(choices: [string, number][]): string | null {
  let roll = Math.random();
  for (const [name, share] of choices) {
    roll -= share;
    if (roll < 0) return name;
  }
  return null;
}
/** A long tail: index 0 is the busiest; a cube of a uniform draw puts most calls on the first few. */
const longTail = (count: number) => Math.floor(count * Math.random() ** 3);
/** Group chats have negative Telegram ids, private chats the user's id. */
const chatId = (index: number) =>
  index % 4 === 0 ? `-100${1_000_000_000 + index}` : String(500_000_000 + index);

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
      chat_id: chatId(longTail(CHATS)),
      user_id: String(100_000_000 + longTail(USERS)),
      feature: pick(FEATURES),
      error_type: success ? null : pick(ERROR_TYPES),
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
        cost_computed, latency_ms, cached, success, chat_id, user_id, feature, error_type)
      SELECT * FROM unnest(${col('client_id')}::text[], ${col('ts')}::text[], ${col('provider')}::text[],
        ${col('model')}::text[], ${col('input_tokens')}::int[], ${col('output_tokens')}::int[],
        ${col('cost_usd')}::float8[], ${col('cost_computed')}::int[], ${col('latency_ms')}::float8[],
        ${col('cached')}::int[], ${col('success')}::int[], ${col('chat_id')}::text[],
        ${col('user_id')}::text[], ${col('feature')}::text[], ${col('error_type')}::text[])`.execute(db);
  }
}

/** An integration call beside every INTEGRATION_EVERY-th llm_call, at the same time. */
function integrationCalls(rows: Row[]): RawRow<'integration_calls'>[] {
  return rows
    .filter((_, i) => i % INTEGRATION_EVERY === 0)
    .map((row, i) => {
      const failed = Math.random() < 0.03;
      return {
        client_id: `bench-ic-${row.client_id}`,
        ts: row.ts,
        service_name: SERVICES[i % SERVICES.length]!,
        status: failed ? 'error' : 'success',
        latency_ms: 40 + Math.round(400 * Math.random() ** 2),
        error: failed ? 'timeout' : null,
      };
    });
}

/**
 * As the housekeeping job does: every finished day keeps its top chats (users) and one other row, and the
 * finished hours' latency histograms are folded into one row per hour and per day and key.
 */
async function foldFinishedDays(db: Kysely<Database>) {
  const before = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000).toISOString();
  for (const kind of LATENCY_KINDS) {
    for (const day of await daysToFold(db, kind, before)) {
      await db.transaction().execute((trx) => foldLatencyDay(trx, kind, day, before));
    }
  }
  const today = new Date().toISOString().slice(0, 10);
  for (const kind of Object.keys(SPEND_TABLES) as SpendKind[]) {
    for (const day of await daysOverBound(db, kind, today, LLM_TOP_PER_DAY)) {
      await db.transaction().execute((trx) => foldDay(trx, kind, day, LLM_TOP_PER_DAY));
    }
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
    const integrations = integrationCalls(rows);
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
      await insertEvents(trx, 'integration_calls', integrations);
      const recentIntegrations = integrations.filter((row) => row.ts >= minutesKeptFrom);
      for (const [grain, stored] of [
        ['hour', integrations],
        ['minute', recentIntegrations],
      ] as const) {
        const rollups = aggregateIntegrationCalls(stored, grain);
        for (let i = 0; i < rollups.length; i += ROLLUPS_PER_UPSERT) {
          await upsertIntegrations(trx, grain, rollups.slice(i, i + ROLLUPS_PER_UPSERT));
        }
      }
      await upsertLatencies(trx, rows, integrations);
      await upsertDimensionSums(trx, aggregateLlmDimensions(rows));
    });
    const done = from + rows.length;
    const rate = Math.round(done / ((Date.now() - began) / 1000));
    progress.update(done / total, `${done.toLocaleString('en')} events, ${rate.toLocaleString('en')}/s`);
  }
  await foldFinishedDays(db);
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
