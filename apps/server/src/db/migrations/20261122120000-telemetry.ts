import type { ColumnDefinitionBuilder, CreateTableBuilder, Kysely } from 'kysely';
import type { DialectName } from '../connection.js';
import { EVENT_TABLES } from '../event-partitions.js';
import { idColumn } from './20261122090000-foundation.js';
import { createTelemetryRollups } from '../table-shapes.js';

type Db = Kysely<unknown>;

/**
 * API keys, bot telemetry (docs/bot-developers/ingestion.md) and the tables the metrics read:
 * - raw events, one append-only table per type, indexed by time (the latest-row look-ups and pruning) and
 *   unique on (client id) so a retried event is stored once;
 * - hourly rollups keyed by their bucket, updated in the ingest transaction; the dashboards read only these;
 * - token budgets and model prices.
 * Sums that can outgrow 32 bits are bigint; money is double precision (an estimate, not an account).
 */
const RAW_TABLES = EVENT_TABLES;
const ROLLUP_TABLES = ['llm_usage_hourly', 'integration_hourly', 'cache_hourly', 'error_hourly'] as const;

export const telemetry = (dialect: DialectName) => ({
  async up(db: Db) {
    const [idType, idBuilder] = idColumn(dialect);
    await db.schema
      .createTable('api_keys')
      .addColumn('id', idType, idBuilder)
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('prefix', 'text', (c) => c.notNull())
      .addColumn('key_hash', 'text', (c) => c.notNull().unique())
      .addColumn('scopes', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('created_by', 'text')
      .addColumn('last_used_at', 'text')
      .addColumn('expires_at', 'text')
      .addColumn('revoked_at', 'text')
      .execute();

    // Raw events: a 64-bit row id (rowid on SQLite), so years of pruned ids never run out on PostgreSQL.
    const eventTable = (name: (typeof RAW_TABLES)[number]) =>
      db.schema
        .createTable(name)
        .addColumn('id', dialect === 'postgres' ? 'bigserial' : 'integer', (c: ColumnDefinitionBuilder) =>
          c.primaryKey(),
        )
        .addColumn('client_id', 'text')
        .addColumn('ts', 'text', (c) => c.notNull());
    const create = async (
      name: (typeof RAW_TABLES)[number],
      columns: (t: CreateTableBuilder<string>) => CreateTableBuilder<string>,
    ) => {
      await columns(eventTable(name)).execute();
      await db.schema.createIndex(`${name}_client_id_uq`).on(name).column('client_id').unique().execute();
      // (ts, id): the newest row in one index step on both databases, and the pruning range.
      await db.schema.createIndex(`${name}_ts_idx`).on(name).columns(['ts', 'id']).execute();
    };

    await create('llm_calls', (t) =>
      t
        .addColumn('provider', 'text', (c) => c.notNull())
        .addColumn('model', 'text', (c) => c.notNull())
        .addColumn('input_tokens', 'integer', (c) => c.notNull())
        .addColumn('output_tokens', 'integer', (c) => c.notNull())
        .addColumn('cost_usd', 'double precision', (c) => c.notNull())
        .addColumn('cost_computed', 'integer', (c) => c.notNull())
        .addColumn('latency_ms', 'double precision', (c) => c.notNull())
        .addColumn('cached', 'integer', (c) => c.notNull())
        .addColumn('success', 'integer', (c) => c.notNull()),
    );
    await create('integration_calls', (t) =>
      t
        .addColumn('service_name', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('latency_ms', 'double precision', (c) => c.notNull())
        .addColumn('error', 'text'),
    );
    await create('cache_reports', (t) =>
      t
        .addColumn('hits', 'integer', (c) => c.notNull())
        .addColumn('misses', 'integer', (c) => c.notNull())
        .addColumn('entries', 'integer', (c) => c.notNull())
        .addColumn('avg_response_time_cached_ms', 'double precision', (c) => c.notNull())
        .addColumn('avg_response_time_uncached_ms', 'double precision', (c) => c.notNull()),
    );
    await create('heartbeats', (t) =>
      t
        .addColumn('telegram_status', 'text', (c) => c.notNull())
        .addColumn('started_at', 'text', (c) => c.notNull())
        .addColumn('active_locks', 'text', (c) => c.notNull()),
    );
    await create('bot_errors', (t) =>
      t.addColumn('source', 'text', (c) => c.notNull()).addColumn('message', 'text', (c) => c.notNull()),
    );
    await create('market_data_reports', (t) =>
      t
        .addColumn('last_candle_time', 'text', (c) => c.notNull())
        .addColumn('websocket_status', 'text', (c) => c.notNull())
        .addColumn('missing_intervals', 'integer', (c) => c.notNull()),
    );

    await createTelemetryRollups(db, 'hour', 'hourly');

    await db.schema
      .createTable('token_budgets')
      .addColumn('provider', 'text', (c) => c.primaryKey())
      .addColumn('daily_token_limit', 'bigint')
      .addColumn('daily_cost_limit', 'double precision')
      .addColumn('is_active', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addColumn('updated_by', 'text')
      .execute();
    await db.schema
      .createTable('model_prices')
      .addColumn('model', 'text', (c) => c.primaryKey())
      .addColumn('input_usd_per_million', 'double precision', (c) => c.notNull())
      .addColumn('output_usd_per_million', 'double precision', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addColumn('updated_by', 'text')
      .execute();
  },
  async down(db: Db) {
    for (const table of ['model_prices', 'token_budgets', ...ROLLUP_TABLES, ...RAW_TABLES, 'api_keys']) {
      await db.schema.dropTable(table).execute();
    }
  },
});
