import type { Kysely } from 'kysely';

type Db = Kysely<unknown>;

const TABLES = [
  ['llm_chat_daily', 'chat_id'],
  ['llm_user_daily', 'user_id'],
] as const;

/**
 * Issue 17, the top chats and users fast on long ranges without changing their answers: two indexes on
 * each daily spend table (modules/telemetry/llm-dimensions.repository.ts, `topSpenders`).
 * - `<table>_by_cost` (day, cost_usd descending, id, requests, tokens): a day's costliest ids read in
 *   order, and the range's total summed from the index alone.
 * - `<table>_by_id` (id, day, cost_usd, requests, tokens): the exact sums of a few ids over a range.
 * Indexes are built from the rows already stored, so there is nothing to copy; going down drops them.
 */
export const llmSpendIndexes = () => ({
  async up(db: Db) {
    for (const [table, key] of TABLES) {
      await db.schema
        .createIndex(`${table}_by_cost`)
        .on(table)
        .columns(['day', 'cost_usd desc', key, 'requests', 'tokens'])
        .execute();
      await db.schema
        .createIndex(`${table}_by_id`)
        .on(table)
        .columns([key, 'day', 'cost_usd', 'requests', 'tokens'])
        .execute();
    }
  },
  async down(db: Db) {
    for (const [table] of TABLES) {
      await db.schema.dropIndex(`${table}_by_id`).execute();
      await db.schema.dropIndex(`${table}_by_cost`).execute();
    }
  },
});
