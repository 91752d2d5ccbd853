import { sql, type Kysely } from 'kysely';

type Db = Kysely<unknown>;

/** What the Calls filters read of a call besides the index that finds it (llm-calls.repository.ts). */
const FILTERED = ['success', 'provider', 'model', 'feature', 'chat_id', 'user_id', 'latency_ms', 'cost_usd'];

/**
 * The failures' indexes also hold the columns the other Calls filters read (docs/operators/metrics.md,
 * "Calls"): an error type or the failures combined with a model, a cost at least and the like are then
 * filtered inside the index, instead of reading each of up to 10,000 candidate rows from the table. Only
 * failed calls are in them, so ingestion pays for the wider entries only on failures. On PostgreSQL each is
 * created on every day partition of llm_calls.
 */
export const llmCallFailureFilters = () => ({
  async up(db: Db) {
    await replace(db, 'llm_calls_error_ts_idx', ['error_type', 'ts', 'id', ...FILTERED]);
    await replace(db, 'llm_calls_failed_ts_idx', ['ts', 'id', 'error_type', ...FILTERED]);
  },
  async down(db: Db) {
    await replace(db, 'llm_calls_error_ts_idx', ['error_type', 'ts', 'id']);
    await replace(db, 'llm_calls_failed_ts_idx', ['ts', 'id']);
  },
});

async function replace(db: Db, name: string, columns: string[]) {
  await db.schema.dropIndex(name).execute();
  await db.schema
    .createIndex(name)
    .on('llm_calls')
    .columns(columns)
    .where(sql.ref('success'), '=', 0)
    .execute();
}
