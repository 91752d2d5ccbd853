import type { Delivery, DeliveryAttempt, DeliveryAttemptOutcome, DeliveryStatus } from '@lumi/contract';
import type { FormattedText } from '@lumi/telegram-markup';
import type { Insertable, Updateable } from 'kysely';
import type { Executor } from '../../../db/database.js';
import type {
  DeliveriesTable,
  DeliveryAttemptRow,
  DeliveryAttemptsTable,
  DeliveryRow,
} from '../../../db/messaging-tables.js';

/** All SQL of deliveries and their attempts, and their storage encoding (0/1 booleans, JSON text). */

export function toDelivery(row: DeliveryRow): Delivery {
  return {
    id: row.id,
    status: row.status,
    source: row.source,
    requested_by: row.requested_by,
    template_id: row.template_id,
    template_name: row.template_name,
    template_version: row.template_version,
    schedule_id: row.schedule_id,
    channel_id: row.channel_id,
    channel_name: row.channel_name,
    chat_id: row.chat_id,
    topic_id: row.topic_id,
    topic_name: row.topic_name,
    message_thread_id: row.message_thread_id,
    text: row.text,
    parse_mode: row.parse_mode,
    disable_web_preview: row.disable_web_preview === 1,
    disable_notification: row.disable_notification === 1,
    pin: row.pin === 1,
    parts: row.parts === null ? null : partsOf(row).length,
    parts_sent: row.parts_sent,
    idempotency_key: row.idempotency_key,
    send_at: row.send_at,
    attempts: row.attempts,
    next_attempt_at: row.status === 'queued' ? row.next_attempt_at : null,
    telegram_message_id: row.telegram_message_id === null ? null : Number(row.telegram_message_id),
    pinned: row.pinned === 1,
    error: row.error,
    created_at: row.created_at,
    updated_at: row.updated_at,
    sent_at: row.sent_at,
  };
}

export function toAttempt(row: DeliveryAttemptRow): DeliveryAttempt {
  return {
    attempt: row.attempt,
    outcome: row.outcome,
    started_at: row.started_at,
    finished_at: row.finished_at,
    duration_ms: row.duration_ms,
    error_code: row.error_code,
    error: row.error,
    retry_after_seconds: row.retry_after_seconds,
    part: row.part,
  };
}

/** The parts of a message sent in parts, as stored (empty for a message sent whole). */
export function partsOf(row: Pick<DeliveryRow, 'parts'>): FormattedText[] {
  return row.parts === null ? [] : (JSON.parse(row.parts) as FormattedText[]);
}

export type NewDelivery = Insertable<DeliveriesTable>;

/** The status, error and sending time of the deliveries among `ids` that exist. */
export function statesOf(db: Executor, ids: number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('deliveries')
    .select(['id', 'status', 'error', 'sent_at'])
    .where('id', 'in', ids)
    .execute();
}

export async function insertDelivery(db: Executor, row: NewDelivery): Promise<DeliveryRow> {
  return db.insertInto('deliveries').values(row).returningAll().executeTakeFirstOrThrow();
}

/** Rows per INSERT: about 30 columns each, far below SQLite's 32,766 bound parameters. */
const INSERT_CHUNK = 200;

/** Inserts many at once; returns them in the order given (ids are assigned in that order). */
export async function insertDeliveries(db: Executor, rows: NewDelivery[]): Promise<DeliveryRow[]> {
  const inserted: DeliveryRow[] = [];
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    const chunk = await db
      .insertInto('deliveries')
      .values(rows.slice(i, i + INSERT_CHUNK))
      .returningAll()
      .execute();
    inserted.push(...chunk.sort((a, b) => a.id - b.id));
  }
  return inserted;
}

export function findDelivery(db: Executor, id: number) {
  return db.selectFrom('deliveries').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findByIdempotencyKey(db: Executor, requesterKey: string, key: string) {
  return db
    .selectFrom('deliveries')
    .selectAll()
    .where('requester_key', '=', requesterKey)
    .where('idempotency_key', '=', key)
    .executeTakeFirst();
}

/** Frees an expired idempotency key, so the caller may use it again. */
export async function releaseIdempotencyKey(db: Executor, id: number): Promise<void> {
  await db
    .updateTable('deliveries')
    .set({ idempotency_key: null, idempotency_expires_at: null })
    .where('id', '=', id)
    .execute();
}

export function findScheduleRun(db: Executor, scheduleId: number, runAt: string) {
  return db
    .selectFrom('deliveries')
    .selectAll()
    .where('schedule_id', '=', scheduleId)
    .where('schedule_run_at', '=', runAt)
    .executeTakeFirst();
}

export interface DeliveryFilter {
  status?: DeliveryStatus;
  channel_id?: number;
  template_id?: number;
  schedule_id?: number;
  from?: string;
  to?: string;
  cursor?: number;
  limit: number;
}

/** Newest first by id; one more than `limit` tells whether there is a next page. */
export async function listDeliveries(db: Executor, filter: DeliveryFilter): Promise<DeliveryRow[]> {
  let query = db.selectFrom('deliveries').selectAll();
  if (filter.status) query = query.where('status', '=', filter.status);
  if (filter.channel_id) query = query.where('channel_id', '=', filter.channel_id);
  if (filter.template_id) query = query.where('template_id', '=', filter.template_id);
  if (filter.schedule_id) query = query.where('schedule_id', '=', filter.schedule_id);
  if (filter.from) query = query.where('created_at', '>=', filter.from);
  if (filter.to) query = query.where('created_at', '<', filter.to);
  if (filter.cursor) query = query.where('id', '<', filter.cursor);
  return query
    .orderBy('id', 'desc')
    .limit(filter.limit + 1)
    .execute();
}

export async function attemptsOf(db: Executor, deliveryId: number): Promise<DeliveryAttemptRow[]> {
  return db
    .selectFrom('delivery_attempts')
    .selectAll()
    .where('delivery_id', '=', deliveryId)
    .orderBy('attempt')
    .orderBy('id')
    .execute();
}

export async function countByStatusSince(db: Executor, since: string) {
  return db
    .selectFrom('deliveries')
    .select(['status', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('created_at', '>=', since)
    .groupBy('status')
    .execute();
}

/**
 * Removes up to `limit` deliveries created before `before` that will not change again (not queued or
 * sending), their attempts with them; returns how many went.
 */
export async function deleteSettledBefore(db: Executor, before: string, limit: number): Promise<number> {
  const ids = await db
    .selectFrom('deliveries')
    .select('id')
    .where('created_at', '<', before)
    .where('status', 'not in', ['queued', 'sending'])
    .orderBy('created_at')
    .limit(limit)
    .execute();
  if (ids.length === 0) return 0;
  const ours = ids.map((row) => row.id);
  await db.deleteFrom('delivery_attempts').where('delivery_id', 'in', ours).execute();
  const result = await db.deleteFrom('deliveries').where('id', 'in', ours).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Changes a delivery only while it is in one of `from`; true when it was. */
export async function transition(
  db: Executor,
  id: number,
  from: DeliveryStatus[],
  changes: Updateable<DeliveriesTable>,
): Promise<boolean> {
  const result = await db
    .updateTable('deliveries')
    .set(changes)
    .where('id', '=', id)
    .where('status', 'in', from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

// The sender's SQL.

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
