import type { Executor } from '../../db/database.js';

/**
 * Reads for writing the chats' and users' spend behind the ingest transactions (spend-buffer.ts): the newest
 * call, the last call the sums cover (llm_spend_written), and the calls after it.
 */

/** The newest call stored (in the ingest transaction: including the batch's own). */
export async function lastCallId(trx: Executor): Promise<number> {
  const row = await trx
    .selectFrom('llm_calls')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  return Number(row?.id ?? 0);
}

/** The last call whose spend the daily chat and user sums hold. */
export async function spendWrittenThrough(db: Executor): Promise<number> {
  const row = await db.selectFrom('llm_spend_written').select('last_call_id').executeTakeFirstOrThrow();
  return Number(row.last_call_id);
}

/** Up to `limit` calls stored after call `after`, in the order they were stored. */
export function callsAfter(db: Executor, after: number, limit: number) {
  return db.selectFrom('llm_calls').selectAll().where('id', '>', after).orderBy('id').limit(limit).execute();
}
