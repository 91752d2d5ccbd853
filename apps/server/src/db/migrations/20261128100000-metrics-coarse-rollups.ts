import { sql, type Kysely } from 'kysely';
import { createLlmDimensionRollups } from '../table-shapes.js';

type Db = Kysely<unknown>;

/**
 * The metrics endpoints fast on long ranges (docs/operators/metrics.md, "Usage by feature, chat and user" and
 * "Latency percentiles"): coarser copies of the rollups they read, so a range reads about a row per day and
 * key instead of a row per hour, key and latency bucket.
 * - llm_feature_daily and llm_error_daily: llm_feature_hourly and llm_error_hourly summed per UTC day,
 *   upserted in the ingest transaction beside them.
 * - llm_latency_folded and integration_latency_folded: a finished hour's latency histogram of a key as one
 *   row (`counts`, "bucket:count" pairs in bucket order), and its UTC day's (grain 'day', `start` the day's
 *   first hour). The housekeeping job moves finished hours' rows out of the hourly histogram tables into
 *   these, in one transaction, so a count is always in exactly one of them (modules/telemetry-store/
 *   latency.repository.ts); the hourly tables keep the current hour and late calls until the next run.
 * Existing sums are copied into the daily tables; the histograms are folded by the first housekeeping run,
 * and going down moves the folded hours back into the hourly tables.
 */
export const metricsCoarseRollups = () => ({
  async up(db: Db) {
    await createLlmDimensionRollups(db, 'day', 'daily');
    await db.schema
      .createTable('llm_latency_folded')
      .addColumn('grain', 'text', (c) => c.notNull())
      .addColumn('start', 'text', (c) => c.notNull())
      .addColumn('provider', 'text', (c) => c.notNull())
      .addColumn('model', 'text', (c) => c.notNull())
      .addColumn('counts', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('llm_latency_folded_pk', ['grain', 'start', 'provider', 'model'])
      .execute();
    await db.schema
      .createTable('integration_latency_folded')
      .addColumn('grain', 'text', (c) => c.notNull())
      .addColumn('start', 'text', (c) => c.notNull())
      .addColumn('service_name', 'text', (c) => c.notNull())
      .addColumn('counts', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('integration_latency_folded_pk', ['grain', 'start', 'service_name'])
      .execute();
    await sql`insert into llm_feature_daily
        (day, feature, provider, model, requests, failed_requests, input_tokens, output_tokens, cost_usd)
      select substr(hour, 1, 10), feature, provider, model, sum(requests), sum(failed_requests),
        sum(input_tokens), sum(output_tokens), sum(cost_usd)
      from llm_feature_hourly group by substr(hour, 1, 10), feature, provider, model`.execute(db);
    await sql`insert into llm_error_daily (day, provider, model, error_type, errors)
      select substr(hour, 1, 10), provider, model, error_type, sum(errors)
      from llm_error_hourly group by substr(hour, 1, 10), provider, model, error_type`.execute(db);
  },
  async down(db: Db) {
    // The folded hours go back into the hourly tables as bucket rows; the day rows only repeat them.
    for (const [folded, hourly, keys] of [
      ['llm_latency_folded', 'llm_latency_hourly', ['provider', 'model']],
      ['integration_latency_folded', 'integration_latency_hourly', ['service_name']],
    ] as const) {
      const { rows } = await sql<Record<string, string>>`select * from ${sql.table(folded)}
        where grain = 'hour'`.execute(db);
      const buckets = rows.flatMap((row) =>
        row.counts!.split(',').map((pair) => {
          const [bucket, count] = pair.split(':');
          return {
            hour: row.start!,
            ...Object.fromEntries(keys.map((k) => [k, row[k]])),
            bucket: Number(bucket),
            count: Number(count),
          };
        }),
      );
      const columns = ['hour', ...keys, 'bucket', 'count'];
      for (let i = 0; i < buckets.length; i += 2000) {
        const values = buckets
          .slice(i, i + 2000)
          .map((b) => sql`(${sql.join(columns.map((c) => (b as Record<string, unknown>)[c]))})`);
        await sql`insert into ${sql.table(hourly)} (${sql.raw(columns.join(', '))}) values ${sql.join(values)}
          on conflict (${sql.raw(['hour', ...keys, 'bucket'].join(', '))})
          do update set count = ${sql.ref(`${hourly}.count`)} + excluded.count`.execute(db);
      }
    }
    for (const table of [
      'integration_latency_folded',
      'llm_latency_folded',
      'llm_error_daily',
      'llm_feature_daily',
    ]) {
      await db.schema.dropTable(table).execute();
    }
  },
});
