import type { Kysely } from 'kysely';
import type { DialectName } from '../connection.js';
import { idColumn } from './20261122090000-foundation.js';
import { createHistoryTable } from '../table-shapes.js';

type Db = Kysely<unknown>;

/**
 * Schedules (docs/bot-developers/deliveries.md, "Schedules"): a template sent on a recurrence, kept with
 * every version like templates. Besides the versioned fields, the scheduler's own state, which edits do not
 * version:
 * - `handled_until`: every run time at or before it has been handled (sent, skipped or refused), so a run
 *   is never considered twice; a new, resumed or re-timed schedule starts from the time of that change.
 * - `next_run_at`: the first run after it (null when paused or ended), which the scheduler looks for.
 * - `run_count`: the runs that made a delivery, against `max_runs`.
 * - `last_*`: what became of the latest run, for the list.
 * The deliveries' unique (schedule_id, schedule_run_at) makes each run one delivery at most.
 */
export const schedules = (dialect: DialectName) => ({
  async up(db: Db) {
    const [idType, idBuilder] = idColumn(dialect);
    await db.schema
      .createTable('messaging_schedules')
      .addColumn('id', idType, idBuilder)
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('template_id', 'integer', (c) => c.notNull())
      .addColumn('channel_id', 'integer')
      .addColumn('topic_id', 'integer')
      .addColumn('recurrence', 'text', (c) => c.notNull())
      .addColumn('timezone', 'text', (c) => c.notNull())
      .addColumn('data_source', 'text', (c) => c.notNull())
      .addColumn('data', 'text', (c) => c.notNull())
      .addColumn('ends_at', 'text')
      .addColumn('max_runs', 'integer')
      .addColumn('enabled', 'integer', (c) => c.notNull())
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addColumn('updated_by', 'text')
      .addColumn('handled_until', 'text', (c) => c.notNull())
      .addColumn('next_run_at', 'text')
      .addColumn('run_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('last_run_at', 'text')
      .addColumn('last_outcome', 'text')
      .addColumn('last_delivery_id', 'integer')
      .addColumn('last_detail', 'text')
      .execute();
    await db.schema
      .createIndex('messaging_schedules_next_run_idx')
      .on('messaging_schedules')
      .columns(['next_run_at', 'id'])
      .execute();

    await createHistoryTable(db, dialect, 'messaging_schedule_versions', {
      column: 'schedule_id',
      table: 'messaging_schedules',
      version: 'version',
    });
  },
  async down(db: Db) {
    await db.schema.dropTable('messaging_schedule_versions').execute();
    await db.schema.dropTable('messaging_schedules').execute();
  },
});
