import type { Recurrence, Schedule, ScheduleRunOutcome, ScheduleSnapshot } from '@lumi/contract';
import type { Updateable } from 'kysely';
import type { Executor } from '../../../db/database.js';
import type { MessagingSchedulesTable } from '../../../db/messaging-tables.js';
import type { Stamp } from '../../../db/versioned-entity.js';
import {
  firstVersionColumns,
  historyRows,
  versionedStore,
  writeStamps,
} from '../../../db/versioned-tables.js';

/**
 * All SQL of schedules, their versions and the scheduler's state, and their storage encoding (0/1
 * booleans, JSON text). The list reads the template's name and the last run's delivery with it, so a
 * last result shows what became of that delivery since.
 */

function selectSchedules(db: Executor) {
  return db
    .selectFrom('messaging_schedules as s')
    .leftJoin('messaging_templates as t', (join) =>
      join.onRef('t.id', '=', 's.template_id').on('t.deleted_at', 'is', null),
    )
    .leftJoin('deliveries as d', 'd.id', 's.last_delivery_id')
    .selectAll('s')
    .select(['t.template_name', 'd.status as delivery_status', 'd.error as delivery_error']);
}

type ScheduleJoinRow = Awaited<ReturnType<ReturnType<typeof selectSchedules>['executeTakeFirstOrThrow']>>;

function toSnapshot(row: ScheduleJoinRow): ScheduleSnapshot {
  return {
    name: row.name,
    template_id: row.template_id,
    channel_id: row.channel_id,
    topic_id: row.topic_id,
    recurrence: JSON.parse(row.recurrence) as Recurrence,
    timezone: row.timezone,
    data_source: row.data_source,
    data: JSON.parse(row.data) as Record<string, unknown>,
    ends_at: row.ends_at,
    max_runs: row.max_runs,
    enabled: row.enabled === 1,
  };
}

/** A schedule and the scheduler's state of it, as the service works with it. */
export type ScheduleRecord = Schedule & { handled_until: string };

function toSchedule(row: ScheduleJoinRow): ScheduleRecord {
  const outcome: ScheduleRunOutcome | null =
    row.last_outcome === 'queued' && row.delivery_status ? row.delivery_status : row.last_outcome;
  return {
    ...toSnapshot(row),
    id: row.id,
    version: row.version,
    template_name: row.template_name,
    next_run_at: row.next_run_at,
    run_count: row.run_count,
    last_result:
      row.last_run_at && outcome
        ? {
            run_at: row.last_run_at,
            outcome,
            delivery_id: row.last_delivery_id,
            detail: row.delivery_error ?? row.last_detail,
          }
        : null,
    ...writeStamps(row),
    handled_until: row.handled_until,
  };
}

function columnsOf(snapshot: ScheduleSnapshot) {
  return {
    ...snapshot,
    recurrence: JSON.stringify(snapshot.recurrence),
    data: JSON.stringify(snapshot.data),
    enabled: snapshot.enabled ? 1 : 0,
  };
}

export async function listSchedules(db: Executor): Promise<ScheduleRecord[]> {
  const rows = await selectSchedules(db).orderBy('s.name').orderBy('s.id').execute();
  return rows.map(toSchedule);
}

export async function findSchedule(db: Executor, id: number): Promise<ScheduleRecord | undefined> {
  const row = await selectSchedules(db).where('s.id', '=', id).executeTakeFirst();
  return row && toSchedule(row);
}

/** Enabled schedules whose next run is due, the longest due first. */
export async function dueSchedules(db: Executor, now: string, limit: number): Promise<ScheduleRecord[]> {
  const rows = await selectSchedules(db)
    .where('s.enabled', '=', 1)
    .where('s.next_run_at', '<=', now)
    .orderBy('s.next_run_at')
    .orderBy('s.id')
    .limit(limit)
    .execute();
  return rows.map(toSchedule);
}

async function insertSchedule(db: Executor, snapshot: ScheduleSnapshot, stamp: Stamp): Promise<number> {
  const inserted = await db
    .insertInto('messaging_schedules')
    .values({ ...columnsOf(snapshot), ...firstVersionColumns(stamp), handled_until: stamp.at })
    .returning('id')
    .executeTakeFirstOrThrow();
  return inserted.id;
}

/** Deletes the schedule and its versions while it is at `expected` (the audit log keeps it). */
async function removeSchedule(db: Executor, id: number, expected: number): Promise<boolean> {
  const current = await db
    .selectFrom('messaging_schedules')
    .select('id')
    .where('id', '=', id)
    .where('version', '=', expected)
    .executeTakeFirst();
  if (!current) return false;
  await db.deleteFrom('messaging_schedule_versions').where('schedule_id', '=', id).execute();
  const result = await db
    .deleteFrom('messaging_schedules')
    .where('id', '=', id)
    .where('version', '=', expected)
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

export const scheduleStore = versionedStore('messaging_schedules', {
  columnsOf,
  find: findSchedule,
  insert: insertSchedule,
  insertVersion: historyRows('messaging_schedule_versions', 'schedule_id', 'version'),
  remove: removeSchedule,
});

export type ScheduleState = Pick<
  Updateable<MessagingSchedulesTable>,
  | 'handled_until'
  | 'next_run_at'
  | 'run_count'
  | 'last_run_at'
  | 'last_outcome'
  | 'last_delivery_id'
  | 'last_detail'
>;

/** Sets the scheduler's state of a schedule, after an edit in the same transaction. */
export async function setState(db: Executor, id: number, state: ScheduleState): Promise<void> {
  await db.updateTable('messaging_schedules').set(state).where('id', '=', id).execute();
}

/**
 * The scheduler's step: sets the state only while the schedule is still at the version and handled time
 * it read, so an edit or another instance's step in between wins and this one changes nothing (false).
 */
export async function advanceState(
  db: Executor,
  seen: { id: number; version: number; handled_until: string },
  state: ScheduleState,
): Promise<boolean> {
  const result = await db
    .updateTable('messaging_schedules')
    .set(state)
    .where('id', '=', seen.id)
    .where('version', '=', seen.version)
    .where('handled_until', '=', seen.handled_until)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
