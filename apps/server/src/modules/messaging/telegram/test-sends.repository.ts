import type { Insertable } from 'kysely';
import type { MessagingTestSendsTable, TestSendRow } from '../../../db/messaging-tables.js';
import type { Executor } from '../../../db/database.js';

export async function insertTestSend(
  db: Executor,
  row: Insertable<MessagingTestSendsTable>,
): Promise<number> {
  const inserted = await db
    .insertInto('messaging_test_sends')
    .values(row)
    .returning('id')
    .executeTakeFirstOrThrow();
  return inserted.id;
}

/** Newest first. */
export function listTestSends(db: Executor, templateId: number, limit: number): Promise<TestSendRow[]> {
  return db
    .selectFrom('messaging_test_sends')
    .selectAll()
    .where('template_id', '=', templateId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}
