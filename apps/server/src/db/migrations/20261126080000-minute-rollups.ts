import type { Kysely } from 'kysely';
import { createTelemetryRollups } from '../table-shapes.js';

type Db = Kysely<unknown>;

/**
 * Alerts (docs/bot-developers/alerts.md, "Conditions"): minute twins of the hourly rollups, so a rule's
 * window of M minutes (at most a day) is summed from rollups, never from raw events. Same columns and sums as
 * the hourly tables, keyed by the minute (`2026-11-22T09:41:00.000Z`), written in the same ingest
 * transaction, kept two days. Two days of minutes stay small, so these tables are not partitioned on
 * PostgreSQL.
 *
 * Also an index for "deliveries that failed in the last M minutes": a failed delivery's updated_at is
 * when it failed, and (status, updated_at) finds them without reading every failed delivery ever kept.
 */
export const minuteRollups = () => ({
  async up(db: Db) {
    await createTelemetryRollups(db, 'minute', 'minute');
    await db.schema
      .createIndex('deliveries_status_updated_idx')
      .on('deliveries')
      .columns(['status', 'updated_at'])
      .execute();
  },
  async down(db: Db) {
    await db.schema.dropIndex('deliveries_status_updated_idx').execute();
    for (const table of ['error_minute', 'cache_minute', 'integration_minute', 'llm_usage_minute']) {
      await db.schema.dropTable(table).execute();
    }
  },
});
