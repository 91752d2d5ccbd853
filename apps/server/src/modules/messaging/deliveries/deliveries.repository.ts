import type { Delivery, DeliveryAttempt, DeliveryStatus } from '@lumi/contract';
import type { FormattedText } from '@lumi/telegram-markup';
import type { Insertable, Updateable } from 'kysely';
import type { Executor } from '../../../db/database.js';
import type { DeliveriesTable, DeliveryAttemptRow, DeliveryRow } from '../../../db/messaging-tables.js';
import { Turns } from '../../../lib/turns.js';

/**
 * The SQL of accepting, reading, operating and forgetting deliveries, and their storage encoding (0/1
 * booleans, JSON text); the sender's is in send-attempts.repository.ts.
 */

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

/**
 * Rows per INSERT: about 30 columns each, far below SQLite's 32,766 bound parameters, and few enough that
 * one statement with its data is a short stretch of the event loop (better-sqlite3 runs it synchronously).
 */
const INSERT_CHUNK = 50;

/**
 * Inserts many at once; returns them in the order given (ids are assigned in that order). Gives the event
 * loop back between statements (lib/turns.ts).
 */
export async function insertDeliveries(db: Executor, rows: NewDelivery[]): Promise<DeliveryRow[]> {
  const inserted: DeliveryRow[] = [];
  const turns = new Turns();
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    await turns.next();
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

/**
 * Deliveries that failed or were refused since `since`. A failed or refused delivery is not changed again
 * (a retry makes a failed one queued), so updated_at is when it failed or was refused; the (status,
 * updated_at) index of migration 20261126080000 finds them.
 */
export async function countFailedSince(db: Executor, since: string): Promise<number> {
  const row = await db
    .selectFrom('deliveries')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('status', 'in', ['failed', 'refused'])
    .where('updated_at', '>', since)
    .executeTakeFirstOrThrow();
  return Number(row.n ?? 0);
}
