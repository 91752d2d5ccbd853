import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../connection.js';

type Db = Kysely<unknown>;

const LOOKUPS = [
  ['llm_call_chats', 'chat_id', 'llm_calls_chat_ts_idx'],
  ['llm_call_users', 'user_id', 'llm_calls_user_ts_idx'],
] as const;

/**
 * SQLite only: a chat's and a user's calls are found through lookup tables written behind the ingest
 * transactions with the chats' and users' daily spend (docs/bot-developers/ingestion.md, "How events are
 * stored"), instead of through indexes on llm_calls. A batch's calls name hundreds of chats and users, so
 * each of those indexes had a page of its own to write per call, most of the ingest worker's writes; the
 * lookups of a second's batches are written together, and share their pages. Each holds a call's tokens and
 * cost, so the limits' minute windows are summed from it alone. The lookups of calls up to
 * llm_spend_written are written here, read in the order of the index they replace so each lookup fills its
 * pages one after another; the rest by the next write of the sums. A trigger removes a call's
 * lookups with the call. PostgreSQL keeps its indexes on llm_calls' day partitions: it has no write-behind.
 */
export const llmCallSubjectLookups = (dialect: DialectName) => ({
  async up(db: Db) {
    if (dialect === 'postgres') return;
    for (const [table, key, index] of LOOKUPS) {
      await sql`create table ${sql.table(table)} (
        ${sql.ref(key)} text not null,
        ts text not null,
        id integer not null,
        tokens integer not null,
        cost_usd double precision not null,
        primary key (${sql.ref(key)}, ts, id)
      ) without rowid`.execute(db);
      await sql`insert into ${sql.table(table)} (${sql.ref(key)}, ts, id, tokens, cost_usd)
        select ${sql.ref(key)}, ts, id, input_tokens + output_tokens, cost_usd from llm_calls
        where ${sql.ref(key)} is not null
          and id <= (select last_call_id from llm_spend_written)
        order by ${sql.ref(key)}, ts, id`.execute(db);
      await db.schema.dropIndex(index).execute();
    }
    await sql`create trigger llm_calls_lookups_delete after delete on llm_calls begin
      delete from llm_call_chats where chat_id = old.chat_id and ts = old.ts and id = old.id;
      delete from llm_call_users where user_id = old.user_id and ts = old.ts and id = old.id;
    end`.execute(db);
  },
  async down(db: Db) {
    if (dialect === 'postgres') return;
    await sql`drop trigger llm_calls_lookups_delete`.execute(db);
    for (const [table, key, index] of LOOKUPS) {
      await db.schema
        .createIndex(index)
        .on('llm_calls')
        .columns([key, 'ts', 'id'])
        .where(sql.ref(key), 'is not', null)
        .execute();
      await db.schema.dropTable(table).execute();
    }
  },
});
