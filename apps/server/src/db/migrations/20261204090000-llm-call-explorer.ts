import { sql, type Kysely } from 'kysely';

type Db = Kysely<unknown>;

/**
 * The calls behind the figures (docs/operators/metrics.md, "Calls"): each LLM call keeps the API key that
 * reported it and the model that answered, and the filters that pick few calls out of many have indexes in
 * the order the list reads them (newest first): a chat, a user, the failures. The other filters (a
 * provider, a model, a feature) match many calls, so the time index finds a page of them quickly. On
 * PostgreSQL each index is created on every day partition of llm_calls.
 */
export const llmCallExplorer = () => ({
  async up(db: Db) {
    await db.schema.alterTable('llm_calls').addColumn('api_key_id', 'integer').execute();
    await db.schema.alterTable('llm_calls').addColumn('response_model', 'text').execute();
    await db.schema
      .createIndex('llm_calls_chat_ts_idx')
      .on('llm_calls')
      .columns(['chat_id', 'ts', 'id'])
      .where(sql.ref('chat_id'), 'is not', null)
      .execute();
    await db.schema
      .createIndex('llm_calls_user_ts_idx')
      .on('llm_calls')
      .columns(['user_id', 'ts', 'id'])
      .where(sql.ref('user_id'), 'is not', null)
      .execute();
    await db.schema
      .createIndex('llm_calls_failed_ts_idx')
      .on('llm_calls')
      .columns(['ts', 'id'])
      .where(sql.ref('success'), '=', 0)
      .execute();
  },
  async down(db: Db) {
    for (const index of ['llm_calls_failed_ts_idx', 'llm_calls_user_ts_idx', 'llm_calls_chat_ts_idx']) {
      await db.schema.dropIndex(index).execute();
    }
    await db.schema.alterTable('llm_calls').dropColumn('response_model').execute();
    await db.schema.alterTable('llm_calls').dropColumn('api_key_id').execute();
  },
});
