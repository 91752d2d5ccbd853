/**
 * The benchmark's generator for part `alerts` (run through tsx after load-llm-calls.ts, on the same scratch
 * database): the rest of what a bot reports over the same 29 days, so every alert condition has something
 * to read. A heartbeat every 30 s, a market-data and a cache report a minute, an integration call every
 * 20 s to each of four services (3 % failing), an error every two minutes from one of four sources, with
 * their hourly rollups and the minute rollups of the last two days, summed and upserted by the server's
 * own code as ingestion does; 20,000 deliveries (5 % failed); and an active budget per provider. Prints one
 * JSON line with the counts; progress goes to stderr.
 *
 * Environment: BENCH_SQLITE_FILE or BENCH_DATABASE_URL (a scratch database).
 */
import type { Insertable } from 'kysely';
import type { Database, Executor } from '../../apps/server/src/db/database.js';
import {
  aggregateCacheReports,
  aggregateErrors,
  aggregateIntegrationCalls,
} from '../../apps/server/src/modules/telemetry-store/rollup-aggregation.js';
import {
  upsertCache,
  upsertErrors,
  upsertIntegrations,
} from '../../apps/server/src/modules/telemetry-store/rollups.repository.js';
import {
  insertEvents,
  type RawRow,
} from '../../apps/server/src/modules/telemetry-store/events.repository.js';
import { LLM_MODELS } from '../demo/simulated-bot.mjs';
import { createProgress } from '../lib/progress.mjs';
import { createDayPartitions, DAY_MS, openScratch } from './scratch-db.js';

const SPAN_MS = 29 * DAY_MS;
const MINUTES_KEPT_MS = 2 * DAY_MS;
/** Events per transaction. */
const CHUNK_MS = DAY_MS;
/** Rollup rows per upsert, within SQLite's 32,766 parameters. */
const ROLLUPS_PER_UPSERT = 1_000;
const DELIVERIES = 20_000;
const SERVICES = ['exchange', 'news', 'weather', 'payments'];
const SOURCES = ['scheduler', 'poster', 'llm', 'market'];

const iso = (ms: number) => new Date(ms).toISOString();

type Rows = {
  heartbeats: RawRow<'heartbeats'>[];
  market_data_reports: RawRow<'market_data_reports'>[];
  cache_reports: RawRow<'cache_reports'>[];
  integration_calls: RawRow<'integration_calls'>[];
  bot_errors: RawRow<'bot_errors'>[];
};

/** The events of [from, to), in time order per type. */
function generate(from: number, to: number, started: number): Rows {
  const rows: Rows = {
    heartbeats: [],
    market_data_reports: [],
    cache_reports: [],
    integration_calls: [],
    bot_errors: [],
  };
  for (let t = from; t < to; t += 30_000) {
    rows.heartbeats.push({
      client_id: `hb-${t}`,
      ts: iso(t),
      telegram_status: 'connected',
      started_at: iso(started),
      active_locks: '[]',
    });
  }
  for (let t = from, minute = 0; t < to; t += 60_000, minute += 1) {
    rows.market_data_reports.push({
      client_id: `md-${t}`,
      ts: iso(t),
      last_candle_time: iso(t - 30_000),
      websocket_status: 'connected',
      missing_intervals: 0,
    });
    const hits = 50 + Math.floor(Math.random() * 50);
    rows.cache_reports.push({
      client_id: `cs-${t}`,
      ts: iso(t),
      hits,
      misses: 100 - hits,
      entries: 1000,
      avg_response_time_cached_ms: 4,
      avg_response_time_uncached_ms: 400,
    });
    if (minute % 2 === 0) {
      rows.bot_errors.push({
        client_id: `er-${t}`,
        ts: iso(t),
        source: SOURCES[Math.floor(Math.random() * SOURCES.length)]!,
        message: 'Something failed',
      });
    }
  }
  for (let t = from; t < to; t += 20_000) {
    for (const service of SERVICES) {
      const failed = Math.random() < 0.03;
      rows.integration_calls.push({
        client_id: `ic-${service}-${t}`,
        ts: iso(t),
        service_name: service,
        status: failed ? 'error' : 'success',
        latency_ms: 50 + Math.floor(Math.random() * 200),
        error: failed ? 'timeout' : null,
      });
    }
  }
  return rows;
}

async function upsertInChunks<T>(rows: T[], upsert: (part: T[]) => Promise<void>) {
  for (let i = 0; i < rows.length; i += ROLLUPS_PER_UPSERT)
    await upsert(rows.slice(i, i + ROLLUPS_PER_UPSERT));
}

async function store(trx: Executor, rows: Rows, minutesFrom: string): Promise<number> {
  let stored = 0;
  for (const table of Object.keys(rows) as (keyof Rows)[]) {
    stored += (await insertEvents(trx, table, rows[table] as never)).stored;
  }
  for (const grain of ['hour', 'minute'] as const) {
    const pick = <R extends { ts: string }>(list: R[]) =>
      grain === 'hour' ? list : list.filter((row) => row.ts >= minutesFrom);
    await upsertInChunks(aggregateIntegrationCalls(pick(rows.integration_calls), grain), (part) =>
      upsertIntegrations(trx, grain, part),
    );
    await upsertInChunks(aggregateCacheReports(pick(rows.cache_reports), grain), (part) =>
      upsertCache(trx, grain, part),
    );
    await upsertInChunks(aggregateErrors(pick(rows.bot_errors), grain), (part) =>
      upsertErrors(trx, grain, part),
    );
  }
  return stored;
}

function delivery(i: number, now: number): Insertable<Database['deliveries']> {
  const at = iso(now - SPAN_MS + Math.floor((i / DELIVERIES) * SPAN_MS));
  const failed = i % 20 === 0;
  return {
    status: failed ? 'failed' : 'sent',
    source: 'api_key',
    requester_key: 'key:1',
    requested_by: 'bench',
    template_id: 1,
    template_name: 'bench',
    template_version: 1,
    schedule_id: null,
    schedule_run_at: null,
    channel_id: 1,
    channel_name: 'bench',
    chat_id: '-1001',
    topic_id: null,
    message_thread_id: null,
    text: 'Bench message',
    parse_mode: 'HTML',
    disable_web_preview: 0,
    disable_notification: 0,
    pin: 0,
    data: '{}',
    idempotency_key: null,
    idempotency_expires_at: null,
    send_at: at,
    next_attempt_at: null,
    lease_owner: null,
    lease_expires_at: null,
    telegram_message_id: null,
    error: failed ? 'Forbidden: bot was blocked by the user' : null,
    created_at: at,
    updated_at: at,
    sent_at: failed ? null : at,
  };
}

async function main() {
  const { handle } = await openScratch();
  const { db } = handle;
  const now = Date.now();
  const start = now - SPAN_MS;
  const minutesFrom = iso(now - MINUTES_KEPT_MS);
  await createDayPartitions(handle, start, now);
  const progress = createProgress({ label: 'Loading the other telemetry of 29 days' });
  let events = 0;
  for (let from = start; from < now; from += CHUNK_MS) {
    const rows = generate(from, Math.min(now, from + CHUNK_MS), start);
    events += await db.transaction().execute((trx) => store(trx, rows, minutesFrom));
    progress.update((from + CHUNK_MS - start) / SPAN_MS, `${events.toLocaleString('en')} events`);
  }
  progress.finish(`Loaded ${events.toLocaleString('en')} other events and their rollups.`);

  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < DELIVERIES; i += 500) {
      const part = Array.from({ length: Math.min(500, DELIVERIES - i) }, (_, k) => delivery(i + k, now));
      await trx.insertInto('deliveries').values(part).execute();
    }
    const providers = [...new Set(LLM_MODELS.map((m: { provider: string }) => m.provider))];
    await trx
      .insertInto('token_budgets')
      .values(
        providers.map((provider) => ({
          provider,
          daily_token_limit: 50_000_000,
          daily_cost_limit: 25,
          is_active: 1,
          created_at: iso(now),
          updated_at: iso(now),
          updated_by: 'bench',
        })),
      )
      .onConflict((oc) => oc.column('provider').doNothing())
      .execute();
  });
  await db.destroy();
  process.stdout.write(`${JSON.stringify({ events, deliveries: DELIVERIES })}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `\nLoading failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
