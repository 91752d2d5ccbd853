import type {
  AlertCondition,
  AlertEvaluation,
  AlertHistoryEntry,
  AlertNotification,
  AlertNotificationStatus,
  AlertRuleValues,
  AlertState,
  ContactPointValues,
  SilenceValues,
} from '@lumi/contract';
import type { Insertable, Updateable } from 'kysely';
import type {
  AlertContactPointRow,
  AlertHistoryTable,
  AlertNotificationsTable,
  AlertRuleRow,
  AlertRulesTable,
  AlertSilenceRow,
} from '../../db/alert-tables.js';
import type { Executor } from '../../db/database.js';

/**
 * All SQL of alerting: rules and their state, contact points, silences, history and notifications, and
 * their storage encoding (0/1 booleans, JSON text). Rule ids in the history and notifications carry no
 * foreign key, so both outlive a deleted rule.
 */

/** A rule's row with the contact points it notifies. */
export type RuleRecord = AlertRuleRow & { contact_point_ids: number[] };

/** Who changed something, and when. */
export interface Stamp {
  at: string;
  by: string | null;
}

export function conditionOf(row: AlertRuleRow): AlertCondition {
  return JSON.parse(row.condition) as AlertCondition;
}

export function evaluationOf(row: AlertRuleRow): AlertEvaluation | null {
  return row.last_evaluation === null ? null : (JSON.parse(row.last_evaluation) as AlertEvaluation);
}

// Rules

async function withContactPoints(db: Executor, rows: AlertRuleRow[]): Promise<RuleRecord[]> {
  if (rows.length === 0) return [];
  const links = await db
    .selectFrom('alert_rule_contact_points')
    .select(['rule_id', 'contact_point_id'])
    .where(
      'rule_id',
      'in',
      rows.map((r) => r.id),
    )
    .orderBy('contact_point_id')
    .execute();
  return rows.map((row) => ({
    ...row,
    contact_point_ids: links.filter((l) => l.rule_id === row.id).map((l) => l.contact_point_id),
  }));
}

export async function listRules(db: Executor, filter: { enabled?: boolean } = {}): Promise<RuleRecord[]> {
  let query = db.selectFrom('alert_rules').selectAll().orderBy('name').orderBy('id');
  if (filter.enabled !== undefined) query = query.where('enabled', '=', filter.enabled ? 1 : 0);
  return withContactPoints(db, await query.execute());
}

export async function findRule(db: Executor, id: number): Promise<RuleRecord | undefined> {
  const row = await db.selectFrom('alert_rules').selectAll().where('id', '=', id).executeTakeFirst();
  return row && (await withContactPoints(db, [row]))[0];
}

function ruleColumns(values: Omit<AlertRuleValues, 'contact_point_ids'>) {
  return {
    name: values.name,
    condition: JSON.stringify(values.condition),
    severity: values.severity,
    pending_seconds: values.pending_seconds,
    no_data: values.no_data,
    renotify_minutes: values.renotify_minutes,
    notify_on_resolve: values.notify_on_resolve ? 1 : 0,
    enabled: values.enabled ? 1 : 0,
  };
}

async function linkContactPoints(db: Executor, ruleId: number, ids: number[]) {
  await db.deleteFrom('alert_rule_contact_points').where('rule_id', '=', ruleId).execute();
  if (ids.length === 0) return;
  await db
    .insertInto('alert_rule_contact_points')
    .values(ids.map((contact_point_id) => ({ rule_id: ruleId, contact_point_id })))
    .execute();
}

export async function insertRule(db: Executor, values: AlertRuleValues, stamp: Stamp): Promise<number> {
  const { id } = await db
    .insertInto('alert_rules')
    .values({
      ...ruleColumns(values),
      created_at: stamp.at,
      updated_at: stamp.at,
      updated_by: stamp.by,
      state_since: stamp.at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await linkContactPoints(db, id, values.contact_point_ids);
  return id;
}

export async function updateRule(db: Executor, id: number, values: AlertRuleValues, stamp: Stamp) {
  await db
    .updateTable('alert_rules')
    .set({ ...ruleColumns(values), updated_at: stamp.at, updated_by: stamp.by })
    .where('id', '=', id)
    .execute();
  await linkContactPoints(db, id, values.contact_point_ids);
}

/** False when there was no such row (another request deleted it first). */
export async function deleteRule(db: Executor, id: number): Promise<boolean> {
  const result = await db.deleteFrom('alert_rules').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/** A rule's state as the evaluation pass writes it. */
export type RuleRuntimeColumns = Pick<
  Updateable<AlertRulesTable>,
  'state' | 'state_since' | 'pending_since' | 'last_notified_at' | 'last_evaluation' | 'last_evaluated_at'
>;

/**
 * Writes a rule's state only while the rule is as the pass read it (same evaluation, same edit), so a pass
 * that overlaps another, or an edit in between, changes nothing (false) and notifies nobody.
 */
export async function advanceRuntime(
  db: Executor,
  seen: { id: number; last_evaluated_at: string | null; updated_at: string },
  runtime: RuleRuntimeColumns,
): Promise<boolean> {
  let query = db
    .updateTable('alert_rules')
    .set(runtime)
    .where('id', '=', seen.id)
    .where('updated_at', '=', seen.updated_at);
  query =
    seen.last_evaluated_at === null
      ? query.where('last_evaluated_at', 'is', null)
      : query.where('last_evaluated_at', '=', seen.last_evaluated_at);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Sets a rule's state outright (a disabled rule goes back to ok). */
export async function setRuntime(db: Executor, id: number, runtime: RuleRuntimeColumns): Promise<void> {
  await db.updateTable('alert_rules').set(runtime).where('id', '=', id).execute();
}

/** The ids among `ids` that are not contact points. */
export async function missingContactPoints(db: Executor, ids: number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const found = await db.selectFrom('alert_contact_points').select('id').where('id', 'in', ids).execute();
  return ids.filter((id) => !found.some((row) => row.id === id));
}

// Contact points

function selectContactPoints(db: Executor) {
  return db
    .selectFrom('alert_contact_points as cp')
    .leftJoin('messaging_channels as c', 'c.id', 'cp.channel_id')
    .leftJoin('messaging_templates as t', (join) =>
      join.onRef('t.id', '=', 'cp.template_id').on('t.deleted_at', 'is', null),
    )
    .selectAll('cp')
    .select((eb) => [
      'c.channel_name',
      't.template_name',
      eb
        .selectFrom('alert_rule_contact_points as l')
        .select((inner) => inner.fn.countAll<string | number>().as('n'))
        .whereRef('l.contact_point_id', '=', 'cp.id')
        .as('rule_count'),
    ]);
}

export type ContactPointRecord = AlertContactPointRow & {
  channel_name: string | null;
  template_name: string | null;
  rule_count: number;
};

function toContactPointRecord(
  row: AlertContactPointRow & {
    channel_name: string | null;
    template_name: string | null;
    rule_count: string | number | null;
  },
): ContactPointRecord {
  return { ...row, rule_count: Number(row.rule_count ?? 0) };
}

export async function listContactPoints(db: Executor): Promise<ContactPointRecord[]> {
  const rows = await selectContactPoints(db).orderBy('cp.name').orderBy('cp.id').execute();
  return rows.map(toContactPointRecord);
}

export async function findContactPoint(db: Executor, id: number): Promise<ContactPointRecord | undefined> {
  const row = await selectContactPoints(db).where('cp.id', '=', id).executeTakeFirst();
  return row && toContactPointRecord(row);
}

/** The columns of a contact point's settings; the other type's stay null. */
export function contactPointColumns(values: ContactPointValues) {
  return values.type === 'telegram'
    ? {
        name: values.name,
        type: values.type,
        channel_id: values.channel_id,
        topic_id: values.topic_id,
        template_id: values.template_id,
        url: null,
      }
    : {
        name: values.name,
        type: values.type,
        channel_id: null,
        topic_id: null,
        template_id: null,
        url: values.url,
      };
}

export async function insertContactPoint(
  db: Executor,
  values: ContactPointValues,
  secret: string | null,
  stamp: Stamp,
): Promise<number> {
  const { id } = await db
    .insertInto('alert_contact_points')
    .values({
      ...contactPointColumns(values),
      secret,
      created_at: stamp.at,
      updated_at: stamp.at,
      updated_by: stamp.by,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function updateContactPoint(db: Executor, id: number, values: ContactPointValues, stamp: Stamp) {
  await db
    .updateTable('alert_contact_points')
    .set({ ...contactPointColumns(values), updated_at: stamp.at, updated_by: stamp.by })
    .where('id', '=', id)
    .execute();
}

/** False when there was no such row (another request deleted it first). */
export async function deleteContactPoint(db: Executor, id: number): Promise<boolean> {
  const result = await db.deleteFrom('alert_contact_points').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/** The names of the rules that notify a contact point. */
export async function rulesUsingContactPoint(db: Executor, id: number): Promise<string[]> {
  const rows = await db
    .selectFrom('alert_rule_contact_points as l')
    .innerJoin('alert_rules as r', 'r.id', 'l.rule_id')
    .select('r.name')
    .where('l.contact_point_id', '=', id)
    .orderBy('r.name')
    .execute();
  return rows.map((r) => r.name);
}

/** The names of the Telegram contact points that post to a channel or topic. */
export async function contactPointNamesUsing(
  db: Executor,
  column: 'channel_id' | 'topic_id',
  id: number,
): Promise<string[]> {
  const rows = await db
    .selectFrom('alert_contact_points')
    .select('name')
    .where(column, '=', id)
    .orderBy('name')
    .execute();
  return rows.map((r) => r.name);
}

/** Contact points by id, with their secrets (the notifier's look-up). */
export async function contactPointsByIds(db: Executor, ids: number[]): Promise<AlertContactPointRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('alert_contact_points').selectAll().where('id', 'in', ids).execute();
}

// Silences

export type SilenceRecord = AlertSilenceRow & { rule_name: string | null };

function selectSilences(db: Executor) {
  return db
    .selectFrom('alert_silences as s')
    .leftJoin('alert_rules as r', 'r.id', 's.rule_id')
    .selectAll('s')
    .select('r.name as rule_name');
}

export async function listSilences(db: Executor): Promise<SilenceRecord[]> {
  return selectSilences(db).orderBy('s.id', 'desc').execute();
}

export async function findSilence(db: Executor, id: number): Promise<SilenceRecord | undefined> {
  return selectSilences(db).where('s.id', '=', id).executeTakeFirst();
}

/** A silence's columns; a once silence without a start starts at `now`. */
function silenceColumns(values: SilenceValues, now: string) {
  const scope = {
    kind: values.kind,
    rule_id: values.rule_id,
    severity: values.severity,
    comment: values.comment,
  };
  return values.kind === 'once'
    ? {
        ...scope,
        starts_at: values.starts_at === null ? now : new Date(values.starts_at).toISOString(),
        ends_at: new Date(values.ends_at).toISOString(),
        weekdays: null,
        start_time: null,
        duration_minutes: null,
        timezone: null,
      }
    : {
        ...scope,
        starts_at: null,
        ends_at: null,
        weekdays: JSON.stringify(values.weekdays),
        start_time: values.start_time,
        duration_minutes: values.duration_minutes,
        timezone: values.timezone,
      };
}

export async function insertSilence(db: Executor, values: SilenceValues, stamp: Stamp): Promise<number> {
  const { id } = await db
    .insertInto('alert_silences')
    .values({ ...silenceColumns(values, stamp.at), created_at: stamp.at, created_by: stamp.by })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function updateSilence(db: Executor, id: number, values: SilenceValues, now: string) {
  await db.updateTable('alert_silences').set(silenceColumns(values, now)).where('id', '=', id).execute();
}

/**
 * Replaces a once silence only while it has not ended by `now`, so of two requests that end it at once
 * one does (true) and the other finds it ended (false): on PostgreSQL the second waits for the first's
 * row lock and then reads its end.
 */
export async function updateSilenceIfNotEnded(
  db: Executor,
  id: number,
  values: SilenceValues,
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('alert_silences')
    .set(silenceColumns(values, now))
    .where('id', '=', id)
    .where('kind', '=', 'once')
    .where('ends_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** False when there was no such row (another request deleted it first). */
export async function deleteSilence(db: Executor, id: number): Promise<boolean> {
  const result = await db.deleteFrom('alert_silences').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

// History

export async function insertHistory(db: Executor, entry: Insertable<AlertHistoryTable>): Promise<void> {
  await db.insertInto('alert_history').values(entry).execute();
}

export interface HistoryFilter {
  rule_id?: number;
  state?: AlertState;
  severity?: AlertHistoryEntry['severity'];
  from?: string;
  to?: string;
  cursor?: number;
  limit: number;
}

/** A page of the history, newest first, and one more row to tell whether another page follows. */
export async function listHistory(db: Executor, filter: HistoryFilter): Promise<AlertHistoryEntry[]> {
  let query = db.selectFrom('alert_history').selectAll();
  if (filter.rule_id !== undefined) query = query.where('rule_id', '=', filter.rule_id);
  if (filter.state !== undefined) query = query.where('to_state', '=', filter.state);
  if (filter.severity !== undefined) query = query.where('severity', '=', filter.severity);
  if (filter.from !== undefined) query = query.where('at', '>=', filter.from);
  if (filter.to !== undefined) query = query.where('at', '<', filter.to);
  if (filter.cursor !== undefined) query = query.where('id', '<', filter.cursor);
  const rows = await query
    .orderBy('id', 'desc')
    .limit(filter.limit + 1)
    .execute();
  return rows.map((row) => ({ ...row, silenced: row.silenced === 1 }));
}

// Notifications

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

function selectNotifications(db: Executor) {
  return db
    .selectFrom('alert_notifications as n')
    .leftJoin('deliveries as d', 'd.id', 'n.delivery_id')
    .select([
      'n.id',
      'n.contact_point_id',
      'n.rule_id',
      'n.rule_name',
      'n.kind',
      'n.status',
      'n.attempts',
      'n.next_attempt_at',
      'n.response_status',
      'n.error',
      'n.delivery_id',
      'n.created_at',
      'n.sent_at',
      'd.status as delivery_status',
      'd.error as delivery_error',
      'd.sent_at as delivery_sent_at',
    ]);
}

type NotificationJoinRow = Awaited<
  ReturnType<ReturnType<typeof selectNotifications>['executeTakeFirstOrThrow']>
>;

/** A Telegram notification is as far as its delivery got: sent, failed (or cancelled), or still queued. */
function toNotification(row: NotificationJoinRow): AlertNotification {
  const { delivery_status, delivery_error, delivery_sent_at, ...rest } = row;
  if (row.delivery_id === null || delivery_status === null) return rest;
  const status: AlertNotificationStatus =
    delivery_status === 'sent'
      ? 'sent'
      : delivery_status === 'failed' || delivery_status === 'cancelled' || delivery_status === 'unknown'
        ? 'failed'
        : 'queued';
  const error = status === 'failed' ? (delivery_error ?? `The delivery is ${delivery_status}`) : rest.error;
  return { ...rest, status, error, sent_at: delivery_sent_at ?? rest.sent_at };
}

export async function findNotification(db: Executor, id: number): Promise<AlertNotification | undefined> {
  const row = await selectNotifications(db).where('n.id', '=', id).executeTakeFirst();
  return row && toNotification(row);
}

/** A contact point's notifications, newest first, and one more to tell whether another page follows. */
export async function listNotifications(
  db: Executor,
  contactPointId: number,
  page: { cursor?: number; limit: number },
): Promise<AlertNotification[]> {
  let query = selectNotifications(db).where('n.contact_point_id', '=', contactPointId);
  if (page.cursor !== undefined) query = query.where('n.id', '<', page.cursor);
  const rows = await query
    .orderBy('n.id', 'desc')
    .limit(page.limit + 1)
    .execute();
  return rows.map(toNotification);
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

/** Removes history entries before `historyBefore` and settled notifications made before `notificationsBefore`. */
export async function pruneOld(
  db: Executor,
  historyBefore: string,
  notificationsBefore: string,
): Promise<{ history: number; notifications: number }> {
  const history = await db.deleteFrom('alert_history').where('at', '<', historyBefore).executeTakeFirst();
  const notifications = await db
    .deleteFrom('alert_notifications')
    .where('created_at', '<', notificationsBefore)
    // A Telegram notification stays `queued` here once its delivery is made; the delivery settles it.
    .where((eb) => eb.or([eb('status', '!=', 'queued'), eb('delivery_id', 'is not', null)]))
    .executeTakeFirst();
  return {
    history: Number(history.numDeletedRows),
    notifications: Number(notifications.numDeletedRows),
  };
}
