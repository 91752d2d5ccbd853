import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ApiKeyCreated, IngestResult, LlmUsage } from '@lumi/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../src/db/connection.js';
import { ServerProcess } from './cluster-process.js';
import { ADMIN, createPostgresDatabase, dialects } from './helper.js';
import { events, MINUTE } from './telemetry-helper.js';

const BATCHES = 40;
const PER_BATCH = 250;
const SENDERS = 4;

/** Batch `b`: PER_BATCH llm_calls of the last hour with ids of their own, chats and users and features. */
const batch = (b: number, now: number) =>
  Array.from({ length: PER_BATCH }, (_, i) =>
    events.llmCall(now - ((b * PER_BATCH + i) % 60) * MINUTE, {
      id: `crash-${b}-${i}`,
      chat_id: `-100${i % 17}`,
      user_id: String(1000 + (i % 29)),
      feature: i % 2 === 0 ? 'reply' : 'digest',
      input_tokens: 10,
      output_tokens: 5,
    }),
  );

/**
 * A kill -9 while batches are being stored (on SQLite by the ingest worker, on PostgreSQL in the server's
 * own process), then a restart on the same database and every batch sent again, as a bot retries: each
 * event is stored exactly once, and the rollups the dashboards read add up to the stored events.
 */
describe.each(dialects)('ingestion across a kill -9 on %s', (dialect) => {
  let databaseUrl = '';
  let dataDir = '';
  let drop: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'lumi-ingest-crash-'));
    if (dialect === 'postgres') {
      const database = await createPostgresDatabase({ empty: true });
      databaseUrl = database.url;
      drop = database.drop;
    }
  });
  afterAll(async () => {
    rmSync(dataDir, { recursive: true, force: true });
    await drop?.();
  });

  it('stores every event once and keeps the rollups equal to the events', async () => {
    const now = Date.now();
    const env = { LOG_LEVEL: 'warn' };
    const first = await ServerProcess.start('ingest-crash-1', databaseUrl, env, { dataDir });
    let second: ServerProcess | undefined;
    try {
      const token = await first.login(ADMIN.username, ADMIN.password);
      const created = await first.request('POST', '/api/admin/api-keys', {
        token,
        body: { name: 'crash bot', scopes: ['ingest:write'] },
      });
      expect(created.status).toBe(201);
      const key = { authorization: `Bearer ${((await created.json()) as ApiKeyCreated).key}` };
      const send = (server: ServerProcess, b: number) =>
        server.request('POST', '/api/ingest/events', { headers: key, body: { events: batch(b, now) } });

      // Several senders at once; the kill comes once a few batches have been answered.
      let answered = 0;
      const sending = Array.from({ length: SENDERS }, async (_, s) => {
        for (let b = s; b < BATCHES; b += SENDERS) {
          try {
            if ((await send(first, b)).status === 200) answered += 1;
          } catch {
            return; // The connection died with the server.
          }
        }
      });
      while (answered < 6) await new Promise((resolve) => setTimeout(resolve, 5));
      await first.stop('SIGKILL');
      await Promise.all(sending);
      expect(answered).toBeLessThan(BATCHES);

      second = await ServerProcess.start('ingest-crash-2', databaseUrl, env, { dataDir });
      let accepted = 0;
      let duplicates = 0;
      for (let b = 0; b < BATCHES; b += 1) {
        const res = await send(second, b);
        expect(res.status, await res.clone().text()).toBe(200);
        const result = (await res.json()) as IngestResult;
        expect(result.rejected).toEqual([]);
        accepted += result.accepted;
        duplicates += result.duplicates;
      }
      // What had committed before the kill comes back as duplicates; the rest is stored now.
      expect(accepted + duplicates).toBe(BATCHES * PER_BATCH);
      expect(duplicates).toBeGreaterThan(0);

      const adminToken = await second.login(ADMIN.username, ADMIN.password);
      const usage = await second.request('GET', '/api/metrics/llm-usage?days=2', { token: adminToken });
      expect(((await usage.json()) as LlmUsage).totals.requests).toBe(BATCHES * PER_BATCH);
    } finally {
      await first.stop('SIGKILL');
      await second?.stop();
    }

    // Straight from the database: raw events, hourly rollups and the chat and feature sums agree.
    const handle: DatabaseHandle =
      dialect === 'postgres'
        ? openDatabase({ databaseUrl })
        : openDatabase({ sqliteFile: path.join(dataDir, 'lumi.db') });
    try {
      const count = async (query: Promise<{ n: unknown }>) => Number((await query).n);
      const { db } = handle;
      expect(
        await count(
          db
            .selectFrom('llm_calls')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow(),
        ),
      ).toBe(BATCHES * PER_BATCH);
      // The rollups add up to the calls; the chats' and users' spend and the limits' usage among them, which
      // the SQLite worker writes behind its batches, have what a kill left unwritten added at the restart.
      const calls = BATCHES * PER_BATCH;
      const sums = {
        llm_usage_hourly: calls,
        llm_feature_hourly: calls,
        llm_chat_daily: calls,
        llm_user_daily: calls,
        llm_spend_daily_totals: 2 * calls,
        // Each call's chat, user and feature.
        limit_usage: 3 * calls,
      } as const;
      for (const [table, requests] of Object.entries(sums) as [keyof typeof sums, number][]) {
        expect(
          await count(
            db
              .selectFrom(table)
              .select((eb) => eb.fn.sum('requests').as('n'))
              .executeTakeFirstOrThrow(),
          ),
          table,
        ).toBe(requests);
      }
      if (dialect === 'sqlite') {
        // Every call found by its chat and its user, once: the lookups are written behind with the sums.
        for (const lookup of ['llm_call_chats', 'llm_call_users'] as const) {
          const found = db
            .selectFrom(lookup)
            .innerJoin('llm_calls', 'llm_calls.id', `${lookup}.id`)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow();
          expect(await count(found), lookup).toBe(calls);
        }
      }
    } finally {
      await handle.db.destroy();
    }
  }, 180_000);
});
