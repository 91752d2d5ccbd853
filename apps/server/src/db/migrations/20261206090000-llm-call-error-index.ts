import { sql, type Kysely } from 'kysely';

type Db = Kysely<unknown>;

/**
 * The failures of one error type, newest first (docs/operators/metrics.md, "Calls"): an error type opened
 * from the errors panel reads its own calls in list order instead of filtering every failure. Only failed
 * calls are in it, so ingestion pays for it only on failures. On PostgreSQL it is created on every day
 * partition of llm_calls.
 */
export const llmCallErrorIndex = () => ({
  async up(db: Db) {
    await db.schema
      .createIndex('llm_calls_error_ts_idx')
      .on('llm_calls')
      .columns(['error_type', 'ts', 'id'])
      .where(sql.ref('success'), '=', 0)
      .execute();
  },
  async down(db: Db) {
    await db.schema.dropIndex('llm_calls_error_ts_idx').execute();
  },
});
