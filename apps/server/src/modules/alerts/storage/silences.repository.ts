import type { SilenceValues } from '@lumi/contract';
import type { AlertSilenceRow } from '../../../db/alert-tables.js';
import type { Executor } from '../../../db/database.js';
import type { Stamp } from './stamp.js';

/**
 * All SQL of silences: once (from, until) or recurring (weekdays, start time, duration, time zone).
 */

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
