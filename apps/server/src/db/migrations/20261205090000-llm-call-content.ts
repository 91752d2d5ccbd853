import type { Kysely } from 'kysely';

type Db = Kysely<unknown>;

/**
 * The content of calls (docs/operators/metrics.md, "Content of calls"):
 * - api_keys.capture_content: 1 when the key's calls keep their prompt and completion (0, off, for every
 *   key there is); content_redactions: a JSON array of the patterns replaced before storing.
 * - llm_call_contents: one row per call that kept content, under an id Lumi makes (llm_calls.content_id),
 *   so a call and its content are written in one batch without reading ids back. It is not partitioned:
 *   content lives LUMI_CONTENT_RETENTION_DAYS, and the retention job deletes it by ts.
 */
export const llmCallContent = () => ({
  async up(db: Db) {
    await db.schema
      .alterTable('api_keys')
      .addColumn('capture_content', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .alterTable('api_keys')
      .addColumn('content_redactions', 'text', (c) => c.notNull().defaultTo('[]'))
      .execute();
    await db.schema.alterTable('llm_calls').addColumn('content_id', 'text').execute();
    await db.schema
      .createTable('llm_call_contents')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('ts', 'text', (c) => c.notNull())
      .addColumn('prompt', 'text', (c) => c.notNull())
      .addColumn('completion', 'text', (c) => c.notNull())
      .addColumn('truncated', 'integer', (c) => c.notNull())
      .addColumn('redactions', 'integer', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('llm_call_contents_ts_idx').on('llm_call_contents').column('ts').execute();
  },
  async down(db: Db) {
    await db.schema.dropTable('llm_call_contents').execute();
    await db.schema.alterTable('llm_calls').dropColumn('content_id').execute();
    await db.schema.alterTable('api_keys').dropColumn('content_redactions').execute();
    await db.schema.alterTable('api_keys').dropColumn('capture_content').execute();
  },
});
