import type { Kysely } from 'kysely';

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
    await db.schema
      .createTable('llm_usage_minute')
      .addColumn('minute', 'text', (c) => c.notNull())
      .addColumn('provider', 'text', (c) => c.notNull())
      .addColumn('model', 'text', (c) => c.notNull())
      .addColumn('requests', 'bigint', (c) => c.notNull())
      .addColumn('failed_requests', 'bigint', (c) => c.notNull())
      .addColumn('cached_requests', 'bigint', (c) => c.notNull())
      .addColumn('input_tokens', 'bigint', (c) => c.notNull())
      .addColumn('output_tokens', 'bigint', (c) => c.notNull())
      .addColumn('cost_usd', 'double precision', (c) => c.notNull())
      .addColumn('latency_ms_total', 'double precision', (c) => c.notNull())
      .addColumn('last_call_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('llm_usage_minute_pk', ['minute', 'provider', 'model'])
      .execute();
    await db.schema
      .createTable('integration_minute')
      .addColumn('minute', 'text', (c) => c.notNull())
      .addColumn('service_name', 'text', (c) => c.notNull())
      .addColumn('total_calls', 'bigint', (c) => c.notNull())
      .addColumn('success_count', 'bigint', (c) => c.notNull())
      .addColumn('error_count', 'bigint', (c) => c.notNull())
      .addColumn('latency_ms_total', 'double precision', (c) => c.notNull())
      .addColumn('last_call_at', 'text', (c) => c.notNull())
      .addColumn('last_status', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('integration_minute_pk', ['minute', 'service_name'])
      .execute();
    await db.schema
      .createTable('cache_minute')
      .addColumn('minute', 'text', (c) => c.primaryKey())
      .addColumn('reports', 'bigint', (c) => c.notNull())
      .addColumn('hits', 'bigint', (c) => c.notNull())
      .addColumn('misses', 'bigint', (c) => c.notNull())
      .addColumn('cached_ms_total', 'double precision', (c) => c.notNull())
      .addColumn('uncached_ms_total', 'double precision', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('error_minute')
      .addColumn('minute', 'text', (c) => c.notNull())
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('errors', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('error_minute_pk', ['minute', 'source'])
      .execute();
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
