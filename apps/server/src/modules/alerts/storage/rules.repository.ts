import type { AlertCondition, AlertEvaluation, AlertRuleValues } from '@lumi/contract';
import type { Updateable } from 'kysely';
import type { AlertRuleRow, AlertRulesTable } from '../../../db/alert-tables.js';
import type { Executor } from '../../../db/database.js';
import type { Stamp } from './stamp.js';

/**
 * All SQL of alert rules, the contact points each notifies, and the state the evaluation pass writes; a
 * rule's condition and last evaluation are JSON text.
 */

/** A rule's row with the contact points it notifies. */
export type RuleRecord = AlertRuleRow & { contact_point_ids: number[] };

export function conditionOf(row: AlertRuleRow): AlertCondition {
  return JSON.parse(row.condition) as AlertCondition;
}

export function evaluationOf(row: AlertRuleRow): AlertEvaluation | null {
  return row.last_evaluation === null ? null : (JSON.parse(row.last_evaluation) as AlertEvaluation);
}

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
