import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';

const LOOKUPS = [
  ['llm_call_chats', 'chat_id'],
  ['llm_call_users', 'user_id'],
] as const;

/**
 * SQLite's lookups of a chat's and a user's calls (migration 20261211090000-llm-call-subject-lookups),
 * written with the chats' and users' daily spend, in the transaction that moves llm_spend_written on: the
 * calls after its last call, up to `through` (else the newest stored), in each lookup's order, so that the
 * calls of one chat or user are written to its pages one after another.
 */
export async function writeCallLookups(db: Executor, through?: number): Promise<void> {
  const last = through ?? sql<number>`(select coalesce(max(id), 0) from llm_calls)`;
  for (const [table, key] of LOOKUPS) {
    await sql`insert into ${sql.table(table)} (${sql.ref(key)}, ts, id, tokens, cost_usd)
      select ${sql.ref(key)}, ts, id, input_tokens + output_tokens, cost_usd from llm_calls
      where id > (select last_call_id from llm_spend_written) and id <= ${last}
        and ${sql.ref(key)} is not null
      order by ${sql.ref(key)}, ts, id`.execute(db);
  }
}

/** The lookup table that finds a chat's (`chat_id`) or a user's (`user_id`) calls. */
export const lookupOf = (key: 'chat_id' | 'user_id') =>
  key === 'chat_id' ? 'llm_call_chats' : 'llm_call_users';
