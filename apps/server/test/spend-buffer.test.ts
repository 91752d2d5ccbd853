import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.js';
import { FLUSH_AFTER_MS, SpendBuffer } from '../src/modules/telemetry-store/spend-buffer.js';
import { useTestApp } from './helper.js';

const sum = (day: string, key: string, requests: number, cost: number) => ({
  day,
  key,
  requests,
  tokens: requests * 100,
  cost_usd: cost,
});

const usage = (subject: string, requests: number, cost: number) => ({
  kind: 'chat' as const,
  subject,
  grain: 'hour' as const,
  bucket: '2026-11-20T10:00:00.000Z',
  requests,
  tokens: requests * 100,
  cost_usd: cost,
});

describe('the spend written behind the ingest transactions (SQLite)', () => {
  const t = useTestApp('sqlite');

  it('holds batches’ sums, merged, until it is told to write them, and says when they have waited long enough', async () => {
    let clock = 1_000_000;
    const buffer = new SpendBuffer(() => clock);
    buffer.add({ sums: { chats: [], users: [] }, usage: [], lastCallId: 3 });
    expect(buffer.held).toBe(false);
    expect(buffer.due).toBe(false);
    buffer.add({
      sums: { chats: [sum('2026-11-20', '-1001', 2, 0.5)], users: [] },
      usage: [usage('-1001', 2, 0.5)],
      lastCallId: 5,
    });
    expect(buffer.held).toBe(true);
    clock += FLUSH_AFTER_MS - 1;
    buffer.add({
      sums: { chats: [sum('2026-11-20', '-1001', 1, 0.25)], users: [sum('2026-11-20', '7', 3, 0.75)] },
      usage: [usage('-1001', 1, 0.25)],
      lastCallId: 9,
    });
    expect(buffer.due).toBe(false);
    clock += 1;
    expect(buffer.due).toBe(true);
    expect(await t.app.db.selectFrom('llm_chat_daily').selectAll().execute()).toEqual([]);
    expect(await t.app.db.selectFrom('limit_usage').selectAll().execute()).toEqual([]);

    await buffer.flush(t.app.db);
    expect(buffer.due).toBe(false);
    expect(buffer.held).toBe(false);
    const chats = await t.app.db.selectFrom('llm_chat_daily').selectAll().execute();
    expect(
      chats.map((row) => ({ ...row, requests: Number(row.requests), tokens: Number(row.tokens) })),
    ).toEqual([{ day: '2026-11-20', chat_id: '-1001', requests: 3, tokens: 300, cost_usd: 0.75 }]);
    const limitUsage = await t.app.db
      .selectFrom('limit_usage')
      .select(['kind', 'subject', 'bucket', 'requests', 'tokens', 'cost_usd'])
      .execute();
    expect(limitUsage.map((row) => ({ ...row, requests: Number(row.requests) }))).toEqual([
      {
        kind: 'chat',
        subject: '-1001',
        bucket: '2026-11-20T10:00:00.000Z',
        requests: 3,
        tokens: 300,
        cost_usd: 0.75,
      },
    ]);
    const totals = await t.app.db
      .selectFrom('llm_spend_daily_totals')
      .select(['kind', 'requests'])
      .orderBy('kind')
      .execute();
    expect(totals.map((row) => [row.kind, Number(row.requests)])).toEqual([
      ['chats', 3],
      ['users', 3],
    ]);
    const written = await t.app.db
      .selectFrom('llm_spend_written')
      .select('last_call_id')
      .executeTakeFirstOrThrow();
    expect(Number(written.last_call_id)).toBe(9);

    // Written once: a second write has nothing to add.
    await buffer.flush(t.app.db);
    const again = await t.app.db.selectFrom('llm_chat_daily').select('requests').executeTakeFirstOrThrow();
    expect(Number(again.requests)).toBe(3);
  });

  it('keeps the sums a batch adds while a write is under way for the next, and those of a write that failed', async () => {
    const buffer = new SpendBuffer();
    const batch = (requests: number, lastCallId: number) => ({
      sums: { chats: [sum('2026-11-20', '-1001', requests, requests / 4)], users: [] },
      usage: [usage('-1001', requests, requests / 4)],
      lastCallId,
    });
    const written = async () => {
      const chat = await t.app.db.selectFrom('llm_chat_daily').select('requests').executeTakeFirst();
      const last = await t.app.db.selectFrom('llm_spend_written').select('last_call_id').executeTakeFirst();
      return { requests: Number(chat?.requests ?? 0), lastCallId: Number(last?.last_call_id ?? 0) };
    };
    // A batch commits while the write of those before waits for the connection.
    buffer.add(batch(2, 5));
    const writing = buffer.flush(t.app.db);
    buffer.add(batch(1, 9));
    expect((await writing)?.map((u) => u.requests)).toEqual([2]);
    expect(await written()).toEqual({ requests: 2, lastCallId: 5 });
    expect(buffer.held).toBe(true);
    // A write that fails: its sums go back, with the batch added meanwhile, for the next write.
    const failing = { transaction: () => ({ execute: () => Promise.reject(new Error('disk I/O error')) }) };
    const failed = buffer.flush(failing as unknown as Kysely<Database>);
    buffer.add(batch(4, 12));
    await expect(failed).rejects.toThrow('disk I/O error');
    expect(buffer.held).toBe(true);
    await buffer.flush(t.app.db);
    expect(await written()).toEqual({ requests: 7, lastCallId: 12 });
    expect(buffer.held).toBe(false);
  });
});
