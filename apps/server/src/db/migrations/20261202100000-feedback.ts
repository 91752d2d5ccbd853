import type { Kysely } from 'kysely';
import type { DialectName } from '../connection.js';
import { idColumn } from './20261122090000-foundation.js';

type Db = Kysely<unknown>;

/**
 * Feedback events (docs/bot-developers/ingestion.md, "Feedback"): a user's reaction to, or score of, a
 * message the bot sent, with the template, feature and configuration revision it came from. Few next to
 * the LLM calls, so one plain table (not partitioned by day); a retried event is stored once, as every
 * event is (its client id and time are unique).
 */
export const feedback = (dialect: DialectName) => ({
  async up(db: Db) {
    const [idType, idBuilder] = idColumn(dialect);
    await db.schema
      .createTable('feedback_events')
      .addColumn('id', idType, idBuilder)
      .addColumn('client_id', 'text')
      .addColumn('ts', 'text', (c) => c.notNull())
      .addColumn('chat_id', 'text', (c) => c.notNull())
      .addColumn('message_id', 'bigint', (c) => c.notNull())
      .addColumn('user_id', 'text')
      .addColumn('reaction', 'text')
      .addColumn('score', 'real')
      .addColumn('template', 'text')
      .addColumn('feature', 'text')
      .addColumn('config_revision', 'text')
      .execute();
    await db.schema
      .createIndex('feedback_events_client_uq')
      .on('feedback_events')
      .columns(['client_id', 'ts'])
      .unique()
      .execute();
    await db.schema.createIndex('feedback_events_ts_idx').on('feedback_events').column('ts').execute();
  },
  async down(db: Db) {
    await db.schema.dropTable('feedback_events').execute();
  },
});
