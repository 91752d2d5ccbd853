import { describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../src/db/connection.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { createPostgresDatabase, dialects } from './helper.js';

/** Deliveries queued before topic names were kept take their topic's name on upgrade. */
describe.each(dialects)('the delivery-topic-names migration on %s', (dialect) => {
  const open = async (): Promise<{ handle: DatabaseHandle; drop: () => Promise<void> }> => {
    if (dialect === 'sqlite') return { handle: openDatabase({}), drop: async () => {} };
    const database = await createPostgresDatabase({ empty: true });
    return { handle: openDatabase({ databaseUrl: database.url }), drop: database.drop };
  };
  const at = '2026-11-25T10:00:00.000Z';
  const delivery = (topicId: number | null) => ({
    status: 'sent' as const,
    source: 'user' as const,
    requester_key: 'user:1',
    requested_by: 'admin',
    template_id: 1,
    template_name: 'Price alert',
    template_version: 1,
    channel_id: 1,
    channel_name: 'Lumi Alerts',
    chat_id: '-100',
    topic_id: topicId,
    message_thread_id: topicId === null ? null : 12,
    text: 'x',
    parse_mode: 'HTML' as const,
    disable_web_preview: 0,
    disable_notification: 0,
    pin: 0,
    data: '{}',
    send_at: at,
    created_at: at,
    updated_at: at,
  });

  it('names the topic of every delivery that has one', async () => {
    const { handle, drop } = await open();
    try {
      await migrateToLatest(handle, '20261130090000-llm-spend-lookups');
      const db = handle.db;
      const channel = await db
        .insertInto('messaging_channels')
        .values({
          channel_name: 'Lumi Alerts',
          channel_name_key: 'lumi alerts',
          chat_id: '-100',
          enabled: 1,
          description: '',
          created_at: at,
          updated_at: at,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const topic = await db
        .insertInto('messaging_topics')
        .values({
          channel_id: channel.id,
          topic_name: 'Price alerts',
          topic_name_key: 'price alerts',
          message_thread_id: 12,
          enabled: 1,
          created_at: at,
          updated_at: at,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      // Inserted as the table was before the migration: without topic_name.
      await db
        .insertInto('deliveries')
        .values([delivery(topic.id), delivery(null)])
        .execute();
      await migrateToLatest(handle, '20261201090000-delivery-topic-names');
      const rows = await db
        .selectFrom('deliveries')
        .select(['topic_id', 'topic_name'])
        .orderBy('id')
        .execute();
      expect(rows).toEqual([
        { topic_id: topic.id, topic_name: 'Price alerts' },
        { topic_id: null, topic_name: null },
      ]);
    } finally {
      await handle.db.destroy();
      await drop();
    }
  });
});
