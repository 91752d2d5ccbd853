import type { Kysely } from 'kysely';
import type { DialectName } from '../connection.js';
import { idColumn } from './20261122090000-foundation.js';
import { createHistoryTable, templateSettingsColumns } from '../table-shapes.js';

type Db = Kysely<unknown>;

/**
 * Telegram channels and their forum topics, message templates with every version kept, the variable
 * catalogue and the record of test sends (docs/bot-developers/deliveries.md, "Message templates"). A channel
 * or topic in use by a template cannot be deleted (the service says which templates; the foreign keys are the
 * safety net); a channel's topics go with it. Test sends keep the channel and topic as they were, without
 * foreign keys, so the history outlives them.
 */
export const messaging = (dialect: DialectName) => ({
  async up(db: Db) {
    const [idType, idBuilder] = idColumn(dialect);
    await db.schema
      .createTable('messaging_channels')
      .addColumn('id', idType, idBuilder)
      .addColumn('channel_name', 'text', (c) => c.notNull())
      .addColumn('channel_name_key', 'text', (c) => c.notNull().unique())
      .addColumn('chat_id', 'text', (c) => c.notNull())
      .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('messaging_topics')
      .addColumn('id', idType, idBuilder)
      .addColumn('channel_id', 'integer', (c) =>
        c.notNull().references('messaging_channels.id').onDelete('cascade'),
      )
      .addColumn('topic_name', 'text', (c) => c.notNull())
      .addColumn('topic_name_key', 'text', (c) => c.notNull())
      .addColumn('message_thread_id', 'integer', (c) => c.notNull())
      .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('messaging_topics_name_uq', ['channel_id', 'topic_name_key'])
      .addUniqueConstraint('messaging_topics_thread_uq', ['channel_id', 'message_thread_id'])
      .execute();

    await db.schema
      .createTable('messaging_templates')
      .addColumn('id', idType, idBuilder)
      .addColumn('template_name', 'text', (c) => c.notNull())
      .addColumn('template_name_key', 'text', (c) => c.notNull().unique())
      .addColumn('channel_id', 'integer', (c) =>
        c.notNull().references('messaging_channels.id').onDelete('restrict'),
      )
      .$call(templateSettingsColumns)
      .execute();
    await db.schema
      .createIndex('messaging_templates_channel_idx')
      .on('messaging_templates')
      .column('channel_id')
      .execute();
    await db.schema
      .createIndex('messaging_templates_topic_idx')
      .on('messaging_templates')
      .column('topic_id')
      .execute();

    await createHistoryTable(db, dialect, 'messaging_template_versions', {
      column: 'template_id',
      table: 'messaging_templates',
      version: 'version',
    });

    await db.schema
      .createTable('messaging_variables')
      .addColumn('id', idType, idBuilder)
      .addColumn('variable_name', 'text', (c) => c.notNull().unique())
      .addColumn('data_type', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('category', 'text', (c) => c.notNull())
      .addColumn('example_value', 'text')
      .addColumn('available_helpers', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('messaging_test_sends')
      .addColumn('id', idType, idBuilder)
      .addColumn('template_id', 'integer', (c) =>
        c.notNull().references('messaging_templates.id').onDelete('cascade'),
      )
      .addColumn('template_version', 'integer', (c) => c.notNull())
      .addColumn('user_id', 'integer')
      .addColumn('username', 'text')
      .addColumn('channel_id', 'integer')
      .addColumn('channel_name', 'text')
      .addColumn('chat_id', 'text')
      .addColumn('topic_id', 'integer')
      .addColumn('message_thread_id', 'integer')
      .addColumn('success', 'integer', (c) => c.notNull())
      .addColumn('telegram_message_id', 'bigint')
      .addColumn('pinned', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('error', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('messaging_test_sends_template_idx')
      .on('messaging_test_sends')
      .columns(['template_id', 'created_at'])
      .execute();
  },
  async down(db: Db) {
    for (const table of [
      'messaging_test_sends',
      'messaging_variables',
      'messaging_template_versions',
      'messaging_templates',
      'messaging_topics',
      'messaging_channels',
    ]) {
      await db.schema.dropTable(table).execute();
    }
  },
});
