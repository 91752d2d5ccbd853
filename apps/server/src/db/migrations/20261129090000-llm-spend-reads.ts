import { sql, type Kysely } from 'kysely';

type Db = Kysely<unknown>;

const TABLES = [
  ['llm_chat_daily', 'chat_id'],
  ['llm_user_daily', 'user_id'],
] as const;

/**
 * The top chats and users fast on long ranges (docs/operators/metrics.md, "Reading a top list") without
 * changing their answers (modules/telemetry-store/top-spenders.repository.ts, `topSpenders`): two indexes on
 * each daily spend table, and each day's total spend of each table as one row.
 * - `<table>_by_cost` (day, cost_usd descending, id, requests, tokens): a day's costliest ids read in
 *   order, and the range's total summed from the index alone.
 * - `<table>_by_id` (id, day, cost_usd, requests, tokens): the exact sums of a few ids over a range.
 * - llm_spend_daily_totals: per `kind` ('chats' or 'users') and UTC day, the sums of the day's rows of
 *   that table, other row included; upserted in the ingest transaction beside them (folding a day moves
 *   sums between its rows and leaves its total as it is). The stored days' totals are copied.
 * Going down drops the table and the indexes.
 */
export const llmSpendReads = () => ({
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
    await db.schema
      .createTable('llm_spend_daily_totals')
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('day', 'text', (c) => c.notNull())
      .addColumn('requests', 'bigint', (c) => c.notNull())
      .addColumn('tokens', 'bigint', (c) => c.notNull())
      .addColumn('cost_usd', 'double precision', (c) => c.notNull())
      .addPrimaryKeyConstraint('llm_spend_daily_totals_pk', ['kind', 'day'])
      .execute();
    for (const [kind, table] of [
      ['chats', 'llm_chat_daily'],
      ['users', 'llm_user_daily'],
    ] as const) {
      await sql`insert into llm_spend_daily_totals (kind, day, requests, tokens, cost_usd)
        select ${kind}, day, sum(requests), sum(tokens), sum(cost_usd) from ${sql.table(table)}
        group by day`.execute(db);
    }
  },
  async down(db: Db) {
    await db.schema.dropTable('llm_spend_daily_totals').execute();
    for (const [table] of TABLES) {
      await db.schema.dropIndex(`${table}_by_id`).execute();
      await db.schema.dropIndex(`${table}_by_cost`).execute();
    }
  },
});
