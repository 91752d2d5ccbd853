import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Worker } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import type { Allowance, LlmUsage, ModelPrice } from '@lumi/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../src/db/connection.js';
import type { Database } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { TooManyRequestsError } from '../src/lib/errors.js';
import { ingestBatch } from '../src/modules/ingestion/ingest-batch.js';
import { INGEST_WORKER_LIMITS, IngestWorker } from '../src/modules/ingestion/ingest-writer.js';
import { SpendBuffer } from '../src/modules/telemetry-store/telemetry-store.js';
import { dialects, useTestApp } from './helper.js';
import { botKey, events, ingestRequest, MINUTE } from './telemetry-helper.js';

const NOW = Date.parse('2026-11-20T12:30:00.000Z');

/** `count` llm_calls with ids `${tag}-0…`, a minute apart before NOW. */
const calls = (tag: string, count: number) =>
  Array.from({ length: count }, (_, i) =>
    events.llmCall(NOW - (i % 50) * MINUTE, { id: `${tag}-${i}`, chat_id: `-100${i % 7}`, feature: 'reply' }),
  );

describe.each(dialects)(
  'ingestion from the worker thread beside the server’s own writes on %s',
  (dialect) => {
    const t = useTestApp(dialect, { ingestWorker: true, app: { now: () => NOW } });

    it('stores parallel batches while the server writes prices, with nothing lost or counted twice', async () => {
      const key = await botKey(t);
      const admin = await t.loginAdmin();
      const batches = Array.from({ length: 12 }, (_, b) => calls(`b${b}`, 40));
      // Each price is a transaction on the server's own connection, racing the worker's.
      const prices = Array.from({ length: 12 }, (_, i) =>
        t.app.inject({
          method: 'PUT',
          url: `/api/config/model-prices/model-${i}`,
          headers: admin.auth,
          payload: { input_usd_per_million: i + 1, output_usd_per_million: i + 2 },
        }),
      );
      const sent = batches.map((batch) => ingestRequest(t.app, key, batch));
      // The first six batches once more, at the same time: their events are duplicates, whichever comes first.
      const again = batches.slice(0, 6).map((batch) => ingestRequest(t.app, key, batch));
      const answers = await Promise.all([...sent, ...again]);
      for (const res of answers) expect(res.statusCode, res.body).toBe(200);
      for (const res of await Promise.all(prices)) expect(res.statusCode, res.body).toBe(200);

      const results = answers.map((res) => res.json<{ accepted: number; duplicates: number }>());
      expect(results.reduce((sum, r) => sum + r.accepted, 0)).toBe(12 * 40);
      expect(results.reduce((sum, r) => sum + r.duplicates, 0)).toBe(6 * 40);
      const stored = await t.app.db
        .selectFrom('llm_calls')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(stored.n)).toBe(12 * 40);
      const usage = await t.app.inject({
        method: 'GET',
        url: '/api/metrics/llm-usage?days=7',
        headers: admin.auth,
      });
      expect(usage.json<LlmUsage>().totals.requests).toBe(12 * 40);
      const listed = await t.app.inject({
        method: 'GET',
        url: '/api/config/model-prices',
        headers: admin.auth,
      });
      // The twelve prices, beside the model the calls used (priced by the catalogue, or not at all).
      expect(listed.json<ModelPrice[]>().filter((p) => p.source === 'operator')).toHaveLength(12);
    });

    it('stores the allowance’s counts and denials through the worker, and keeps a request limit exact', async () => {
      const admin = await t.loginAdmin();
      const key = await botKey(t, ['allowance:read']);
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/limits',
        headers: admin.auth,
        payload: { scope: 'each_chat', metric: 'requests', window: 'day', amount: 12, mode: 'hard' },
      });
      expect(created.statusCode, created.body).toBe(201);
      const ask = () =>
        t.app.inject({
          method: 'POST',
          url: '/api/bot/allowance',
          headers: key,
          payload: { chat_id: '-77', feature: 'reply' },
        });
      const answers = await Promise.all(Array.from({ length: 30 }, ask));
      expect(answers.every((res) => res.statusCode === 200)).toBe(true);
      expect(answers.filter((res) => res.json<Allowance>().allowed)).toHaveLength(12);
      // Listing the limits writes what the allowance buffered first (docs/operators/limits.md, "What counts").
      expect(
        (await t.app.inject({ method: 'GET', url: '/api/limits', headers: admin.auth })).statusCode,
      ).toBe(200);
      const granted = await t.app.db
        .selectFrom('limit_grants')
        .select((eb) => eb.fn.sum<number | string>('granted').as('n'))
        .where('kind', '=', 'chat')
        .where('subject', '=', '-77')
        .where('grain', '=', 'hour')
        .executeTakeFirstOrThrow();
      expect(Number(granted.n)).toBe(12);
      const denied = await t.app.db
        .selectFrom('limit_denials')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('chat_id', '=', '-77')
        .executeTakeFirstOrThrow();
      expect(Number(denied.n)).toBe(18);
      expect((await ask()).json<Allowance>().allowed).toBe(false);
    });
  },
);

/** `count` llm_calls of seven chats and five users, over two UTC days. */
const spenders = (tag: string, count: number) =>
  Array.from({ length: count }, (_, i) =>
    events.llmCall(NOW - (i % 20) * 45 * MINUTE, {
      id: `${tag}-${i}`,
      chat_id: `-100${i % 7}`,
      user_id: `${i % 5}`,
      cost_usd: 0.001 * (1 + (i % 3)),
    }),
  );

type SpendRow = { kind: string; day: string; key: string; requests: number; tokens: number; cost: number };

/**
 * The daily spend rows, the limits' hourly usage rows and the calls' chat and user lookups the tables hold,
 * and the same from the calls themselves.
 */
async function spendTables(db: Kysely<Database>) {
  const read = async (query: ReturnType<typeof sql<SpendRow>>) =>
    (await query.execute(db)).rows.map((row) => ({
      ...row,
      requests: Number(row.requests),
      tokens: Number(row.tokens),
      cost: Math.round(Number(row.cost) * 1e9) / 1e9,
    }));
  const stored = await read(sql<SpendRow>`
    select 'chats' as kind, day, chat_id as key, requests, tokens, cost_usd as cost from llm_chat_daily
    union all select 'users', day, user_id, requests, tokens, cost_usd from llm_user_daily
    union all select 'total ' || kind, day, '', requests, tokens, cost_usd from llm_spend_daily_totals
    union all select 'limit ' || kind, bucket, subject, requests, tokens, cost_usd from limit_usage
    union all select 'lookup chat', ts || ' ' || id, chat_id, 1, tokens, cost_usd from llm_call_chats
    union all select 'lookup user', ts || ' ' || id, user_id, 1, tokens, cost_usd from llm_call_users
    order by 1, 2, 3`);
  const summed = await read(sql<SpendRow>`
    with spend as (
      select 'chats' as kind, substr(ts, 1, 10) as day, chat_id as key, input_tokens + output_tokens as tokens, cost_usd
      from llm_calls where chat_id is not null
      union all select 'users', substr(ts, 1, 10), user_id, input_tokens + output_tokens, cost_usd
      from llm_calls where user_id is not null)
    select kind, day, key, count(*) as requests, sum(tokens) as tokens, sum(cost_usd) as cost from spend
    group by kind, day, key
    union all select 'total ' || kind, day, '', count(*), sum(tokens), sum(cost_usd) from spend group by kind, day
    union all select 'limit ' || kind, substr(ts, 1, 13) || ':00:00.000Z', subject, count(*), sum(tokens), sum(cost_usd)
    from (
      select 'chat' as kind, ts, chat_id as subject, input_tokens + output_tokens as tokens, cost_usd
      from llm_calls where chat_id is not null
      union all select 'user', ts, user_id, input_tokens + output_tokens, cost_usd from llm_calls where user_id is not null
      union all select 'feature', ts, feature, input_tokens + output_tokens, cost_usd from llm_calls where feature is not null)
    group by kind, 2, subject
    union all select 'lookup chat', ts || ' ' || id, chat_id, 1, input_tokens + output_tokens, cost_usd
    from llm_calls where chat_id is not null
    union all select 'lookup user', ts || ' ' || id, user_id, 1, input_tokens + output_tokens, cost_usd
    from llm_calls where user_id is not null
    order by 1, 2, 3`);
  const { rows } = await sql<{ written: number; last: number }>`
    select (select last_call_id from llm_spend_written) as written, (select max(id) from llm_calls) as last`.execute(
    db,
  );
  return { stored, summed, written: Number(rows[0]!.written), last: Number(rows[0]!.last) };
}

describe('the ingest worker (on a SQLite file)', () => {
  let dir = '';
  let handle: DatabaseHandle;
  let writer: IngestWorker | undefined;

  beforeEach(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'lumi-ingest-worker-'));
    handle = openDatabase({ sqliteFile: path.join(dir, 'lumi.db') });
    await migrateToLatest(handle);
  });
  afterEach(async () => {
    await writer?.close();
    writer = undefined;
    await handle.db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  const start = (limits: Partial<typeof INGEST_WORKER_LIMITS> = {}) => {
    writer = new IngestWorker(
      { database: { sqliteFile: handle.file! }, timezone: 'UTC' },
      { ...INGEST_WORKER_LIMITS, ...limits },
    );
    return writer;
  };

  it('writes the chats’ and users’ spend and the limits’ usage behind its batches, all of it once no batch is in hand', async () => {
    const worker = start();
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, b) => worker.ingest(spenders(`s${b}`, 60), NOW)),
    );
    expect(results.reduce((sum, r) => sum + r.accepted, 0)).toBe(8 * 60);
    const spend = await spendTables(handle.db);
    expect(spend.stored.filter((row) => row.kind === 'total chats')).toHaveLength(2);
    expect(spend.stored.filter((row) => row.kind === 'limit chat')).not.toHaveLength(0);
    expect(spend.stored).toEqual(spend.summed);
    expect(spend.written).toBe(spend.last);
  });

  it('adds at its start the spend of calls stored before a stop kept it from writing their sums', async () => {
    // A batch stored as the worker stores it, its sums held for a write that never comes.
    const held = new SpendBuffer();
    expect((await ingestBatch(handle.db, spenders('lost', 40), NOW, 'UTC', undefined, held)).accepted).toBe(
      40,
    );
    const before = await spendTables(handle.db);
    expect(before.stored).toEqual([]);
    expect(before.written).toBe(0);

    const worker = start();
    expect((await worker.ingest(spenders('next', 30), NOW)).accepted).toBe(30);
    const after = await spendTables(handle.db);
    expect(after.stored).toEqual(after.summed);
    expect(after.stored.find((row) => row.kind === 'total chats')).toBeDefined();
    expect(after.written).toBe(after.last);
  });

  it('stores the parts of the allowance’s write it held with the last, and fails the write if it stopped meanwhile', async () => {
    const worker = start();
    const grants = (...subjects: string[]) =>
      subjects.map((subject) => ({
        kind: 'chat' as const,
        subject,
        grain: 'hour' as const,
        bucket: '2026-11-20T12:00:00.000Z',
        granted: 1,
      }));
    const part = (write: number, last: boolean, ...subjects: string[]) =>
      worker.storeLimitEvents({ write, last, grants: grants(...subjects), denials: [] });
    const stored = async () =>
      (await handle.db.selectFrom('limit_grants').select('subject').orderBy('subject').execute()).map(
        (row) => row.subject,
      );
    expect(await part(1, false, '-1', '-2')).toBe('held');
    expect(await stored()).toEqual([]);
    const first = await part(1, true, '-3');
    expect(first).toEqual({ number: expect.any(Number) });
    expect(await stored()).toEqual(['-1', '-2', '-3']);
    // Its thread stops while it holds a part: the write's next part fails, and nothing of the write is stored.
    expect(await part(2, false, '-4')).toBe('held');
    await (worker as unknown as { worker: Worker }).worker.terminate();
    await expect(part(2, true, '-5')).rejects.toThrow(/held the earlier parts/);
    expect(await stored()).toEqual(['-1', '-2', '-3']);
    // The write again, as the allowance sends what failed with its next one, to a new thread.
    expect(await part(3, true, '-4', '-5')).toEqual({ number: expect.any(Number) });
    expect(await stored()).toEqual(['-1', '-2', '-3', '-4', '-5']);
  });

  it('answers 429 with a retry hint once too many batches wait, and takes them again after', async () => {
    const worker = start({ maxQueued: 2 });
    const waiting = [worker.ingest(calls('a', 5), NOW), worker.ingest(calls('b', 5), NOW)];
    const refused = worker.ingest(calls('c', 5), NOW);
    await expect(refused).rejects.toBeInstanceOf(TooManyRequestsError);
    await expect(refused).rejects.toMatchObject({ statusCode: 429, headers: { 'retry-after': '1' } });
    expect((await Promise.all(waiting)).map((r) => r.accepted)).toEqual([5, 5]);
    expect((await worker.ingest(calls('c', 5), NOW)).accepted).toBe(5);
  });

  it('fails the batches in hand when its thread stops, and starts a new one for the next batch', async () => {
    const worker = start();
    expect((await worker.ingest(calls('a', 3), NOW)).accepted).toBe(3);
    const inHand = worker.ingest(calls('b', 3), NOW);
    // What a crash of the thread looks like from the server: it exits without answering.
    await (worker as unknown as { worker: Worker }).worker.terminate();
    await expect(inHand).rejects.toThrow(/exited/);
    // The retried batch: whatever of it had committed counts as duplicates, nothing twice.
    const retried = await worker.ingest(calls('b', 3), NOW);
    expect(retried.accepted + retried.duplicates).toBe(3);
    const stored = await handle.db
      .selectFrom('llm_calls')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(stored.n)).toBe(6);
  });

  it('finishes the batches in hand before it closes, and refuses new ones after', async () => {
    const worker = start();
    const inHand = worker.ingest(calls('a', 20), NOW);
    const closed = worker.close();
    await expect(worker.ingest(calls('b', 1), NOW)).rejects.toThrow(/shutting down/);
    expect((await inHand).accepted).toBe(20);
    await closed;
  });

  it('stops at shutdown after its deadline even when a batch is stuck behind a lock', async () => {
    const worker = start({ closeWaitMs: 200 });
    expect((await worker.ingest(calls('a', 2), NOW)).accepted).toBe(2);
    // Another connection holds the write lock, so the worker's next batch waits for it.
    const other = new SQLite(handle.file!);
    other.prepare('begin immediate').run();
    try {
      const stuck = worker.ingest(calls('b', 2), NOW);
      const closed = worker.close();
      await expect(stuck).rejects.toThrow(/shutting down/);
      other.prepare('rollback').run();
      await closed;
    } finally {
      other.close();
    }
    writer = undefined;
    const stored = await handle.db
      .selectFrom('llm_calls')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(stored.n)).toBe(2);
  });
});
