import type { Kysely } from 'kysely';
import type { DialectName } from '../connection.js';
import { idColumn } from './20261122090000-foundation.js';

type Db = Kysely<unknown>;

const USAGE_ROLLUPS = ['llm_usage_hourly', 'llm_usage_minute'] as const;

/**
 * Prices and ignored spans (docs/operators/metrics.md, "Token budgets and model prices";
 * docs/bot-developers/otlp.md, "Ignored spans"):
 * - llm_calls.unpriced: 1 for a call Lumi could not price (no cost from the bot, no operator price, none in
 *   the catalogue, or no token usage); usage_known: 0 for a call whose token usage the bot could not tell.
 * - the usage rollups count the unpriced calls per bucket, provider and model, so the console can say how
 *   many calls a figure leaves out. Calls stored before count as priced: they were costed as they are.
 * - otlp_ignored_spans: the latest spans of each API key's exports that were not stored, and why.
 */
export const llmPricing = (dialect: DialectName) => ({
  async up(db: Db) {
    await db.schema
      .alterTable('llm_calls')
      .addColumn('unpriced', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .alterTable('llm_calls')
      .addColumn('usage_known', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();
    for (const table of USAGE_ROLLUPS) {
      await db.schema
        .alterTable(table)
        .addColumn('unpriced_requests', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();
    }
    const [idType, idBuilder] = idColumn(dialect);
    await db.schema
      .createTable('otlp_ignored_spans')
      .addColumn('id', idType, idBuilder)
      .addColumn('api_key_id', 'integer', (c) => c.notNull().references('api_keys.id').onDelete('cascade'))
      .addColumn('received_at', 'text', (c) => c.notNull())
      .addColumn('trace_id', 'text', (c) => c.notNull())
      .addColumn('span_id', 'text', (c) => c.notNull())
      .addColumn('span_name', 'text', (c) => c.notNull())
      .addColumn('reason', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('otlp_ignored_spans_key_idx')
      .on('otlp_ignored_spans')
      .columns(['api_key_id', 'id'])
      .execute();
  },
  async down(db: Db) {
    await db.schema.dropTable('otlp_ignored_spans').execute();
    for (const table of USAGE_ROLLUPS) {
      await db.schema.alterTable(table).dropColumn('unpriced_requests').execute();
    }
    await db.schema.alterTable('llm_calls').dropColumn('usage_known').execute();
    await db.schema.alterTable('llm_calls').dropColumn('unpriced').execute();
  },
});
