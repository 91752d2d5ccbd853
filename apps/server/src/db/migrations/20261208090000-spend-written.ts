import { sql, type Kysely } from 'kysely';

type Db = Kysely<unknown>;

/**
 * llm_spend_written (db/llm-dimension-tables.ts): the last call whose spend the daily chat and user sums
 * hold. Every call stored so far is in them: their sums were written in each batch's transaction.
 */
export const spendWritten = () => ({
  async up(db: Db) {
    await db.schema
      .createTable('llm_spend_written')
      .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
      .addColumn('last_call_id', 'bigint', (c) => c.notNull())
      .execute();
    await sql`insert into llm_spend_written (id, last_call_id) select 1, coalesce(max(id), 0) from llm_calls`.execute(
      db,
    );
  },
  async down(db: Db) {
    await db.schema.dropTable('llm_spend_written').execute();
  },
});
