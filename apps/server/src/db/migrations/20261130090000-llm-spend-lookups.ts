import type { Kysely } from 'kysely';

type Db = Kysely<unknown>;

const TABLES = [
  ['llm_chat_daily', 'chat_id'],
  ['llm_user_daily', 'user_id'],
] as const;

/**
 * The top lists while a bot reports (docs/operators/metrics.md, "Reading a top list"): `<table>_by_id`
 * becomes (id, day) alone. It held the sums too (20261129090000-llm-spend-reads), so every ingest batch's
 * upsert of today's rows changed its keys: on PostgreSQL each update left a dead entry beside the live one,
 * and an id's lookup for today walked through thousands of them (65 ms for 80 ids after a few minutes of
 * ingestion). Keyed by (id, day) alone, an update leaves its key as it was, and PostgreSQL removes the old
 * versions itself (bottom-up deletion) even without a vacuum; the sums come from the table's row. Going down
 * restores the covering index.
 */
export const llmSpendLookups = () => ({
  async up(db: Db) {
    for (const [table, key] of TABLES) {
      await db.schema.dropIndex(`${table}_by_id`).execute();
      await db.schema.createIndex(`${table}_by_id`).on(table).columns([key, 'day']).execute();
    }
  },
  async down(db: Db) {
    for (const [table, key] of TABLES) {
      await db.schema.dropIndex(`${table}_by_id`).execute();
      await db.schema
        .createIndex(`${table}_by_id`)
        .on(table)
        .columns([key, 'day', 'cost_usd', 'requests', 'tokens'])
        .execute();
    }
  },
});
