import type { AlertNotification } from '@lumi/contract';
import type { Insertable, Updateable } from 'kysely';
import type { AlertNotificationsTable } from '../../../db/alert-tables.js';
import type { Executor } from '../../../db/database.js';

/**
 * All SQL of notifications: one per contact point told of a change, with a webhook's tries or the
 * Telegram delivery that carries it (whose state the deliveries service answers). A rule's id carries no
 * foreign key.
 */

export type NewNotification = Insertable<AlertNotificationsTable>;

export async function insertNotification(db: Executor, row: NewNotification): Promise<number> {
  const { id } = await db
    .insertInto('alert_notifications')
    .values(row)
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function findNotificationRow(db: Executor, id: number) {
  return db.selectFrom('alert_notifications').selectAll().where('id', '=', id).executeTakeFirst();
}

/** What a notification shows: its row but the body it was sent with. */
function selectNotifications(db: Executor) {
  return db
    .selectFrom('alert_notifications')
    .select([
      'id',
      'contact_point_id',
      'rule_id',
      'rule_name',
      'kind',
      'status',
      'attempts',
      'next_attempt_at',
      'response_status',
      'error',
      'delivery_id',
      'created_at',
      'sent_at',
    ]);
}

/** A notification as stored; a Telegram one's status is its delivery's (notification-status.ts). */
export function findNotification(db: Executor, id: number): Promise<AlertNotification | undefined> {
  return selectNotifications(db).where('id', '=', id).executeTakeFirst();
}

/** A contact point's notifications, newest first, and one more to tell whether another page follows. */
export async function listNotifications(
  db: Executor,
  contactPointId: number,
  page: { cursor?: number; limit: number },
): Promise<AlertNotification[]> {
  let query = selectNotifications(db).where('contact_point_id', '=', contactPointId);
  if (page.cursor !== undefined) query = query.where('id', '<', page.cursor);
  return query
    .orderBy('id', 'desc')
    .limit(page.limit + 1)
    .execute();
}

/** Queued notifications not yet handed on (no delivery) whose next try is due, the oldest first. */
export async function dueNotifications(db: Executor, now: string, limit: number) {
  return db
    .selectFrom('alert_notifications')
    .selectAll()
    .where('status', '=', 'queued')
    .where('delivery_id', 'is', null)
    .where('next_attempt_at', '<=', now)
    .orderBy('next_attempt_at')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/**
 * Takes a due notification for one try: counts the attempt and moves its next try to `leaseUntil`, while
 * it is still as it was read, so two instances never try it at once. A try that never reports back is
 * tried again after the lease.
 */
export async function claimNotification(
  db: Executor,
  seen: { id: number; attempts: number },
  now: string,
  leaseUntil: string,
): Promise<boolean> {
  const result = await db
    .updateTable('alert_notifications')
    .set({ attempts: seen.attempts + 1, next_attempt_at: leaseUntil })
    .where('id', '=', seen.id)
    .where('status', '=', 'queued')
    .where('attempts', '=', seen.attempts)
    .where('next_attempt_at', '<=', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function updateNotification(
  db: Executor,
  id: number,
  changes: Updateable<AlertNotificationsTable>,
): Promise<void> {
  await db.updateTable('alert_notifications').set(changes).where('id', '=', id).execute();
}

/** Removes the settled notifications made before `before` (a Telegram one once its delivery is made). */
export async function pruneNotifications(db: Executor, before: string): Promise<number> {
  const result = await db
    .deleteFrom('alert_notifications')
    .where('created_at', '<', before)
    // A Telegram notification stays `queued` here once its delivery is made; the delivery settles it.
    .where((eb) => eb.or([eb('status', '!=', 'queued'), eb('delivery_id', 'is not', null)]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
