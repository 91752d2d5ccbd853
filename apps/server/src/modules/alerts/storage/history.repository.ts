import type { AlertHistoryEntry, AlertState } from '@lumi/contract';
import type { Insertable } from 'kysely';
import type { AlertHistoryTable } from '../../../db/alert-tables.js';
import type { Executor } from '../../../db/database.js';

/**
 * All SQL of the alert history: every state change with the value that caused it. A rule's id carries no
 * foreign key, so the history outlives the rule.
 */

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

/** Removes the history entries before `before`. */
export async function pruneHistory(db: Executor, before: string): Promise<number> {
  const result = await db.deleteFrom('alert_history').where('at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
