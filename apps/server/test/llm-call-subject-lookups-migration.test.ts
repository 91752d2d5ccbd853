import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/connection.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { writeCallLookups } from '../src/modules/telemetry-store/llm-call-lookups.repository.js';

/**
 * SQLite finds a chat's and a user's calls through lookups written behind the ingest transactions
 * (migration 20261211090000-llm-call-subject-lookups); PostgreSQL keeps its indexes and is not changed.
 */
describe('the llm-call-subject-lookups migration on SQLite', () => {
  const call = (n: number, chat: string | null, user: string | null) => ({
    ts: `2026-11-30T10:00:0${n}.000Z`,
    client_id: `c${n}`,
    provider: 'openai',
    model: 'gpt-4o-mini',
    input_tokens: 100 * n,
    output_tokens: n,
    cost_usd: 0.01 * n,
    cost_computed: 0,
    latency_ms: 300,
    cached: 0,
    success: 1,
    chat_id: chat,
    user_id: user,
    feature: null,
    error_type: null,
    api_key_id: null,
    response_model: null,
    content_id: null,
  });
  const lookups = async (db: ReturnType<typeof openDatabase>['db']) =>
    (
      await sql<{ kind: string; subject: string; id: number; tokens: number; cost_usd: number }>`
        select 'chat' as kind, chat_id as subject, id, tokens, cost_usd from llm_call_chats
        union all select 'user', user_id, id, tokens, cost_usd from llm_call_users order by 1, 3`.execute(db)
    ).rows;

  it('writes the lookups of the calls whose sums are written, the rest with the next sums, and drops them with their call', async () => {
    const handle = openDatabase({});
    const { db } = handle;
    try {
      await migrateToLatest(handle, '20261210090000-limit-grant-function');
      await db
        .insertInto('llm_calls')
        .values([call(1, '-100', '7'), call(2, null, '8'), call(3, '-100', null)])
        .execute();
      // Calls 1 and 2 are summed; call 3 was stored by a batch whose sums a stop kept from being written.
      await db.updateTable('llm_spend_written').set({ last_call_id: 2 }).execute();
      await migrateToLatest(handle);

      expect(await lookups(db)).toEqual([
        { kind: 'chat', subject: '-100', id: 1, tokens: 101, cost_usd: 0.01 },
        { kind: 'user', subject: '7', id: 1, tokens: 101, cost_usd: 0.01 },
        { kind: 'user', subject: '8', id: 2, tokens: 202, cost_usd: 0.02 },
      ]);
      const indexes = await sql<{ name: string }>`
        select name from sqlite_master where type = 'index' and tbl_name = 'llm_calls'`.execute(db);
      expect(indexes.rows.map((row) => row.name)).not.toContain('llm_calls_chat_ts_idx');
      expect(indexes.rows.map((row) => row.name)).not.toContain('llm_calls_user_ts_idx');

      await db.transaction().execute(async (trx) => {
        await writeCallLookups(trx);
        await trx.updateTable('llm_spend_written').set({ last_call_id: 3 }).execute();
      });
      expect((await lookups(db)).map((row) => `${row.kind} ${row.id}`)).toEqual([
        'chat 1',
        'chat 3',
        'user 1',
        'user 2',
      ]);

      await db.deleteFrom('llm_calls').where('id', 'in', [1, 3]).execute();
      expect((await lookups(db)).map((row) => `${row.kind} ${row.id}`)).toEqual(['user 2']);
    } finally {
      await db.destroy();
    }
  });

  it('goes down to the indexes it replaced', async () => {
    const handle = openDatabase({});
    try {
      await migrateToLatest(handle);
      await migrateToLatest(handle, '20261210090000-limit-grant-function');
      const objects = await sql<{ name: string }>`
        select name from sqlite_master where name like 'llm_call%' order by name`.execute(handle.db);
      const names = objects.rows.map((row) => row.name);
      expect(names).toContain('llm_calls_chat_ts_idx');
      expect(names).toContain('llm_calls_user_ts_idx');
      expect(names).not.toContain('llm_call_chats');
      expect(names).not.toContain('llm_calls_lookups_delete');
    } finally {
      await handle.db.destroy();
    }
  });
});
