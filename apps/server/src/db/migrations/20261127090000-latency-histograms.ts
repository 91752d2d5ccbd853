import type { Kysely } from 'kysely';

type Db = Kysely<unknown>;

/**
 * Latency percentiles (docs/operators/metrics.md, "Latency percentiles"): mergeable latency histograms beside
 * the hourly rollups, one row per hour, key and non-empty bucket of lib/latency-buckets.ts (fixed logarithmic
 * buckets, α = 2 %). Written by upserts in the ingest transaction (count + the batch's count), pruned with
 * the hourly rollups (400 days). A percentile of any range sums the counts per bucket over its hours.
 */
export const latencyHistograms = () => ({
  async up(db: Db) {
    await db.schema
      .createTable('llm_latency_hourly')
      .addColumn('hour', 'text', (c) => c.notNull())
      .addColumn('provider', 'text', (c) => c.notNull())
      .addColumn('model', 'text', (c) => c.notNull())
      .addColumn('bucket', 'integer', (c) => c.notNull())
      .addColumn('count', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('llm_latency_hourly_pk', ['hour', 'provider', 'model', 'bucket'])
      .execute();
    await db.schema
      .createTable('integration_latency_hourly')
      .addColumn('hour', 'text', (c) => c.notNull())
      .addColumn('service_name', 'text', (c) => c.notNull())
      .addColumn('bucket', 'integer', (c) => c.notNull())
      .addColumn('count', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('integration_latency_hourly_pk', ['hour', 'service_name', 'bucket'])
      .execute();
  },
  async down(db: Db) {
    await db.schema.dropTable('integration_latency_hourly').execute();
    await db.schema.dropTable('llm_latency_hourly').execute();
  },
});
