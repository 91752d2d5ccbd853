import type { DeliveryAttemptOutcome } from '@lumi/contract';
import type { Insertable, Updateable } from 'kysely';
import type { Executor } from '../../../db/database.js';
import type { DeliveriesTable, DeliveryAttemptsTable, DeliveryRow } from '../../../db/messaging-tables.js';

/**
 * The sender's SQL (delivery-sender.ts, delivery-dispatch.ts): the due deliveries, the attempts Telegram's
 * limits are counted from, the leases, the whole bot's pause, and each send's outcome.
 */

/** Due queued deliveries the sender looks at in one round, at most; beyond them a chat waits its turn. */
const DUE_SCAN = 5_000;

/**
 * The next delivery of each chat that has one due (its oldest: a chat gets its messages in the order they
 * were queued), oldest due first, for up to `limit` chats. One per chat, so that a long queue to one chat
 * does not hide every other chat behind it.
 */
export function sendCandidates(db: Executor, now: string, limit: number): Promise<DeliveryRow[]> {
  const due = db
    .selectFrom('deliveries')
    .select(['id', 'chat_id'])
    .where('status', '=', 'queued')
    .where('next_attempt_at', '<=', now)
    .orderBy('next_attempt_at')
    .orderBy('id')
    .limit(DUE_SCAN)
    .as('due');
  const firstOfEachChat = db
    .selectFrom(due)
    .select((eb) => eb.fn.min('due.id').as('id'))
    .groupBy('due.chat_id');
  return db
    .selectFrom('deliveries')
    .selectAll()
    .where('id', 'in', firstOfEachChat)
    .orderBy('next_attempt_at')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** When an attempt started, when it was answered (null: not yet), and what it came to. */
export interface AttemptTimes {
  chat_id: string;
  started_at: string;
  finished_at: string | null;
  outcome: DeliveryAttemptOutcome;
}

/**
 * The attempts to these chats that started after `since` (a chat's own: `since[chat]`), oldest first: what
 * the per-chat limits are counted from.
 */
export async function chatAttempts(db: Executor, since: Map<string, string>): Promise<AttemptTimes[]> {
  if (since.size === 0) return [];
  // Chats grouped by how far back they look (groups a minute, other chats a second or so).
  const bySince = new Map<string, string[]>();
  for (const [chat, from] of since) bySince.set(from, [...(bySince.get(from) ?? []), chat]);
  return db
    .selectFrom('delivery_attempts')
    .select(['chat_id', 'started_at', 'finished_at', 'outcome'])
    .where((eb) =>
      eb.or(
        [...bySince].map(([from, chats]) =>
          eb.and([eb('chat_id', 'in', chats), eb('started_at', '>', from)]),
        ),
      ),
    )
    .orderBy('started_at')
    .orderBy('id')
    .execute();
}

/** The starts of the latest `n` attempts to any chat, latest first. */
export async function latestStarts(db: Executor, n: number): Promise<string[]> {
  const rows = await db
    .selectFrom('delivery_attempts')
    .select('started_at')
    .orderBy('started_at', 'desc')
    .limit(n)
    .execute();
  return rows.map((row) => row.started_at);
}

/**
 * Attempts that started after `since` and no later than `upTo`, and that are either unanswered (in flight,
 * or `unknown`) or answered after `answeredSince`: the ones that may still hold the bot's window shut.
 */
export function openAttempts(
  db: Executor,
  range: { since: string; upTo: string; answeredSince: string },
): Promise<Omit<AttemptTimes, 'chat_id'>[]> {
  return db
    .selectFrom('delivery_attempts')
    .select(['started_at', 'finished_at', 'outcome'])
    .where('started_at', '>', range.since)
    .where('started_at', '<=', range.upTo)
    .where((eb) =>
      eb.or([
        eb('outcome', 'in', ['sending', 'unknown']),
        eb('finished_at', 'is', null),
        eb('finished_at', '>', range.answeredSince),
      ]),
    )
    .orderBy('started_at')
    .execute();
}

/**
 * Takes a queued, due delivery for sending (one more attempt, leased to `owner` until `leaseExpiresAt`);
 * the delivery as it is then, or undefined when it is no longer queued (another instance took it, it was
 * cancelled) or not due.
 */
export function startSending(
  db: Executor,
  id: number,
  now: string,
  lease: { owner: string; expiresAt: string },
): Promise<DeliveryRow | undefined> {
  return db
    .updateTable('deliveries')
    .set((eb) => ({
      status: 'sending',
      attempts: eb('attempts', '+', 1),
      lease_owner: lease.owner,
      lease_expires_at: lease.expiresAt,
      updated_at: now,
    }))
    .where('id', '=', id)
    .where('status', '=', 'queued')
    .where('next_attempt_at', '<=', now)
    .returningAll()
    .executeTakeFirst();
}

export async function insertAttempt(db: Executor, row: Insertable<DeliveryAttemptsTable>): Promise<number> {
  const inserted = await db
    .insertInto('delivery_attempts')
    .values(row)
    .returning('id')
    .executeTakeFirstOrThrow();
  return inserted.id;
}

export async function finishAttempt(
  db: Executor,
  id: number,
  outcome: DeliveryAttemptOutcome,
  changes: Omit<Updateable<DeliveryAttemptsTable>, 'outcome'>,
): Promise<void> {
  await db
    .updateTable('delivery_attempts')
    .set({ ...changes, outcome })
    .where('id', '=', id)
    .execute();
}

/**
 * Deliveries whose sender's lease ran out: its instance stopped (or stalled) holding them. One whose send
 * had started (an attempt `sending`, recorded right before its request went out) may or may not have
 * reached Telegram: it becomes `unknown` (never sent again by itself), and so does that attempt. One whose
 * send never started cannot have reached Telegram: it is queued again, for whichever instance comes next.
 */
export async function expireLeases(
  db: Executor,
  now: string,
  error: string,
): Promise<{ unknown: number; requeued: number }> {
  const expired = await db
    .selectFrom('deliveries')
    .select((eb) => [
      'id',
      eb
        .exists(
          eb
            .selectFrom('delivery_attempts')
            .select('delivery_attempts.id')
            .whereRef('delivery_attempts.delivery_id', '=', 'deliveries.id')
            .where('delivery_attempts.outcome', '=', 'sending'),
        )
        .as('started'),
    ])
    .where('status', '=', 'sending')
    .where('lease_expires_at', '<', now)
    .execute();
  // SQLite answers EXISTS with 0 or 1, PostgreSQL with a boolean.
  const started = expired.filter((row) => Boolean(row.started)).map((row) => row.id);
  const notStarted = expired.filter((row) => !row.started).map((row) => row.id);
  if (started.length > 0) {
    await db
      .updateTable('deliveries')
      .set({ status: 'unknown', error, lease_expires_at: null, updated_at: now })
      .where('id', 'in', started)
      .where('status', '=', 'sending')
      .execute();
    await db
      .updateTable('delivery_attempts')
      .set({ outcome: 'unknown', finished_at: now, error })
      .where('delivery_id', 'in', started)
      .where('outcome', '=', 'sending')
      .execute();
  }
  if (notStarted.length > 0) {
    await db
      .updateTable('deliveries')
      .set({ status: 'queued', lease_owner: null, lease_expires_at: null, updated_at: now })
      .where('id', 'in', notStarted)
      .where('status', '=', 'sending')
      .execute();
  }
  return { unknown: started.length, requeued: notStarted.length };
}

export function pausedUntil(db: Executor) {
  return db.selectFrom('telegram_send_state').select(['paused_until']).where('id', '=', 1).executeTakeFirst();
}

/** Pauses the whole bot until `until`, unless a longer pause is already set. */
export async function pauseUntil(db: Executor, until: string, reason: string): Promise<void> {
  await db
    .updateTable('telegram_send_state')
    .set({ paused_until: until, pause_reason: reason })
    .where('id', '=', 1)
    .where((eb) => eb.or([eb('paused_until', 'is', null), eb('paused_until', '<', until)]))
    .execute();
}

/**
 * Records a send's outcome on its delivery (`changes`, with the lease let go), while `owner` still holds
 * it: a delivery another instance took over meanwhile is left as it is. One called unknown meanwhile is
 * changed all the same: what Telegram answered is the truth then.
 */
export async function settleDelivery(
  db: Executor,
  id: number,
  owner: string,
  changes: Updateable<DeliveriesTable>,
  now: string,
): Promise<void> {
  await db
    .updateTable('deliveries')
    .set({ ...changes, lease_owner: null, lease_expires_at: null, updated_at: now })
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .where('status', 'in', ['sending', 'unknown'])
    .execute();
}
