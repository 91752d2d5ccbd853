import type { FeedbackGrouping } from '@lumi/contract';
import type { Insertable } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { FeedbackEventsTable } from '../../db/telemetry-tables.js';

/** All SQL of feedback events (docs/bot-developers/ingestion.md, "Feedback"). */

export type FeedbackRow = Insertable<FeedbackEventsTable>;

/** Stores the events not stored before (client id and time decide); returns how many were stored. */
export async function insertFeedback(db: Executor, rows: FeedbackRow[]): Promise<number> {
  if (rows.length === 0) return 0;
  const inserted = await db
    .insertInto('feedback_events')
    .values(rows)
    .onConflict((oc) => oc.columns(['client_id', 'ts']).doNothing())
    .returning('id')
    .execute();
  return inserted.length;
}

/** Per key of `by` since `from`: events, each reaction's count, and the scores' count and sum. */
export function feedbackCounts(db: Executor, by: FeedbackGrouping, from: string) {
  return db
    .selectFrom('feedback_events')
    .select((eb) => [
      eb.ref(by).as('key'),
      'reaction',
      eb.fn.countAll<number | string>().as('events'),
      eb.fn.count<number | string>('score').as('scores'),
      eb.fn.sum<number | string | null>('score').as('score_sum'),
    ])
    .where('ts', '>=', from)
    .groupBy([by, 'reaction'])
    .execute();
}

/** Feedback older than `before` goes with the raw events' retention. */
export async function pruneFeedback(db: Executor, before: string): Promise<number> {
  const result = await db.deleteFrom('feedback_events').where('ts', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
