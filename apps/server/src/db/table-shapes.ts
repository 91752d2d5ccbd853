import type { CreateTableBuilder, Kysely } from 'kysely';
import type { DialectName } from './connection.js';
import { idColumn } from './migrations/20261122090000-foundation.js';

/**
 * Tables that several migrations create with the same columns: the history of a versioned entity, a
 * template's settings (created, then rebuilt on SQLite by the soft-delete migration) and the telemetry
 * rollups, whose finer and coarser twins differ only in their bucket column. Migrations that have shipped
 * call these, so their SQL must stay as it is: a table with other columns gets a function of its own.
 */

type Db = Kysely<unknown>;
type Table = CreateTableBuilder<string>;

/**
 * The history of a versioned entity (versioned-entity.ts): a row for each `version` of the entity `owner`
 * in `ownerTable`, with what changed and the snapshot as JSON text, removed with the entity.
 */
export async function createHistoryTable(
  db: Db,
  dialect: DialectName,
  table: string,
  owner: { column: string; table: string; version: string },
): Promise<void> {
  const [idType, idBuilder] = idColumn(dialect);
  await db.schema
    .createTable(table)
    .addColumn('id', idType, idBuilder)
    .addColumn(owner.column, 'integer', (c) =>
      c.notNull().references(`${owner.table}.id`).onDelete('cascade'),
    )
    .addColumn(owner.version, 'integer', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('changes', 'text', (c) => c.notNull())
    .addColumn('restored_from', 'integer')
    .addColumn('snapshot', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_by', 'text')
    .addUniqueConstraint(`${table}_uq`, [owner.column, owner.version])
    .execute();
}

/** A message template's columns from its topic to who last wrote it (docs/bot-developers/deliveries.md). */
export function templateSettingsColumns(table: Table): Table {
  return table
    .addColumn('topic_id', 'integer', (c) => c.references('messaging_topics.id').onDelete('restrict'))
    .addColumn('template_content', 'text', (c) => c.notNull())
    .addColumn('message_type', 'text', (c) => c.notNull())
    .addColumn('parse_mode', 'text', (c) => c.notNull())
    .addColumn('disable_web_preview', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('disable_notification', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('allow_pinning', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('pin_by_default', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('updated_by', 'text');
}

/**
 * The rollups of LLM usage, integration calls, cache reports and bot errors, keyed by `bucket`: the hourly
 * tables (`hour`, suffix `hourly`) and their minute twins (`minute`, suffix `minute`).
 */
export async function createTelemetryRollups(
  db: Db,
  bucket: 'hour' | 'minute',
  suffix: 'hourly' | 'minute',
): Promise<void> {
  await db.schema
    .createTable(`llm_usage_${suffix}`)
    .addColumn(bucket, 'text', (c) => c.notNull())
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
    .addPrimaryKeyConstraint(`llm_usage_${suffix}_pk`, [bucket, 'provider', 'model'])
    .execute();
  await db.schema
    .createTable(`integration_${suffix}`)
    .addColumn(bucket, 'text', (c) => c.notNull())
    .addColumn('service_name', 'text', (c) => c.notNull())
    .addColumn('total_calls', 'bigint', (c) => c.notNull())
    .addColumn('success_count', 'bigint', (c) => c.notNull())
    .addColumn('error_count', 'bigint', (c) => c.notNull())
    .addColumn('latency_ms_total', 'double precision', (c) => c.notNull())
    .addColumn('last_call_at', 'text', (c) => c.notNull())
    .addColumn('last_status', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint(`integration_${suffix}_pk`, [bucket, 'service_name'])
    .execute();
  await db.schema
    .createTable(`cache_${suffix}`)
    .addColumn(bucket, 'text', (c) => c.primaryKey())
    .addColumn('reports', 'bigint', (c) => c.notNull())
    .addColumn('hits', 'bigint', (c) => c.notNull())
    .addColumn('misses', 'bigint', (c) => c.notNull())
    // Sums of the reported averages weighted by their hits (misses), so the window's averages are exact.
    .addColumn('cached_ms_total', 'double precision', (c) => c.notNull())
    .addColumn('uncached_ms_total', 'double precision', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable(`error_${suffix}`)
    .addColumn(bucket, 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('errors', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint(`error_${suffix}_pk`, [bucket, 'source'])
    .execute();
}

/**
 * The rollups of the llm_call dimensions feature and error type (llm-dimension-tables.ts), keyed by
 * `bucket`: hourly (`hour`, suffix `hourly`) and per UTC day (`day`, suffix `daily`).
 */
export async function createLlmDimensionRollups(
  db: Db,
  bucket: 'hour' | 'day',
  suffix: 'hourly' | 'daily',
): Promise<void> {
  await db.schema
    .createTable(`llm_feature_${suffix}`)
    .addColumn(bucket, 'text', (c) => c.notNull())
    .addColumn('feature', 'text', (c) => c.notNull())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('requests', 'bigint', (c) => c.notNull())
    .addColumn('failed_requests', 'bigint', (c) => c.notNull())
    .addColumn('input_tokens', 'bigint', (c) => c.notNull())
    .addColumn('output_tokens', 'bigint', (c) => c.notNull())
    .addColumn('cost_usd', 'double precision', (c) => c.notNull())
    .addPrimaryKeyConstraint(`llm_feature_${suffix}_pk`, [bucket, 'feature', 'provider', 'model'])
    .execute();
  await db.schema
    .createTable(`llm_error_${suffix}`)
    .addColumn(bucket, 'text', (c) => c.notNull())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('error_type', 'text', (c) => c.notNull())
    .addColumn('errors', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint(`llm_error_${suffix}_pk`, [bucket, 'provider', 'model', 'error_type'])
    .execute();
}
