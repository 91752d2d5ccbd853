import type { Kysely } from 'kysely';
import type { DialectName } from '../connection.js';
import { EVENT_TABLES, partitionEventTable } from '../event-partitions.js';

type Db = Kysely<unknown>;

/**
 * Several instances on one PostgreSQL (docs/operators/postgresql-and-instances.md,
 * "Running several instances"):
 * - `job_leases`: which instance runs each periodic job, until when, and when it last started anywhere;
 * - on PostgreSQL the raw event tables become partitioned by day (db/event-partitions.ts), so retention
 *   drops days instead of deleting rows. A unique key of a partitioned table must hold the partition key,
 *   so an event's identity for duplicates becomes (client id, ts) on both databases: a retry resends the
 *   same event, time included.
 */
export const cluster = (dialect: DialectName) => ({
  async up(db: Db) {
    await db.schema
      .createTable('job_leases')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('holder', 'text')
      .addColumn('acquired_at', 'text')
      .addColumn('expires_at', 'text')
      .addColumn('last_run_at', 'text')
      .addColumn('last_run_by', 'text')
      .addColumn('last_duration_ms', 'integer')
      .addColumn('last_error', 'text')
      .execute();

    if (dialect === 'postgres') {
      for (const table of EVENT_TABLES) await partitionEventTable(db as never, table, Date.now());
      return;
    }
    for (const table of EVENT_TABLES) {
      await db.schema.dropIndex(`${table}_client_id_uq`).execute();
      await db.schema
        .createIndex(`${table}_client_id_uq`)
        .on(table)
        .columns(['client_id', 'ts'])
        .unique()
        .execute();
    }
  },
  async down() {
    throw new Error('The cluster migration cannot be undone: restore a backup instead.');
  },
});
