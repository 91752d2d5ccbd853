import { sql, type Kysely } from 'kysely';
import { createLlmDimensionRollups } from '../table-shapes.js';

type Db = Kysely<unknown>;

const DIMENSIONS = ['chat_id', 'user_id', 'feature', 'error_type'] as const;
const ROLLUPS = ['llm_feature_hourly', 'llm_error_hourly', 'llm_chat_daily', 'llm_user_daily'] as const;

/**
 * The llm_call dimensions (docs/bot-developers/ingestion.md, "Who and what an LLM call was for"): an
 * llm_call's optional chat_id, user_id, feature and error_type (nullable columns; on PostgreSQL, added to the
 * partitioned table, they reach every partition), and their rollups (db/llm-dimension-tables.ts). The calls
 * counted so far had no dimensions, so the hourly usage rollup already holds their sums: they are copied as
 * feature '' and, for failed calls, error type 'unknown', so every range shows the same totals on every
 * panel. No chat or user was ever reported, so the daily tables start empty.
 */
export const llmDimensions = () => ({
  async up(db: Db) {
    for (const column of DIMENSIONS) {
      await db.schema.alterTable('llm_calls').addColumn(column, 'text').execute();
    }
    await createLlmDimensionRollups(db, 'hour', 'hourly');
    for (const [table, key] of [
      ['llm_chat_daily', 'chat_id'],
      ['llm_user_daily', 'user_id'],
    ] as const) {
      await db.schema
        .createTable(table)
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn(key, 'text', (c) => c.notNull())
        .addColumn('requests', 'bigint', (c) => c.notNull())
        .addColumn('tokens', 'bigint', (c) => c.notNull())
        .addColumn('cost_usd', 'double precision', (c) => c.notNull())
        .addPrimaryKeyConstraint(`${table}_pk`, ['day', key])
        .execute();
    }
    await sql`insert into llm_feature_hourly
        (hour, feature, provider, model, requests, failed_requests, input_tokens, output_tokens, cost_usd)
      select hour, '', provider, model, requests, failed_requests, input_tokens, output_tokens, cost_usd
      from llm_usage_hourly`.execute(db);
    await sql`insert into llm_error_hourly (hour, provider, model, error_type, errors)
      select hour, provider, model, 'unknown', failed_requests from llm_usage_hourly
      where failed_requests > 0`.execute(db);
  },
  async down(db: Db) {
    for (const table of [...ROLLUPS].reverse()) await db.schema.dropTable(table).execute();
    for (const column of DIMENSIONS) {
      await db.schema.alterTable('llm_calls').dropColumn(column).execute();
    }
  },
});
