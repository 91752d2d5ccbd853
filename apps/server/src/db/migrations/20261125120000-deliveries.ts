import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../connection.js';
import { idColumn } from './20261122090000-foundation.js';

type Db = Kysely<unknown>;

/**
 * Deliveries (docs/bot-developers/deliveries.md, "Guarantees"), a durable outbox: a delivery is stored,
 * rendered, with every send option before it is accepted, and the sender takes it from here.
 * - `deliveries`: one message to send; the template, channel and topic are kept by value (names, chat id,
 *   thread id) so the log outlives them. `lease_owner`/`lease_expires_at` mark the instance sending it.
 *   The idempotency key is unique per caller (`requester_key`) while it is live; a schedule's run is
 *   unique per (schedule, run time).
 * - `delivery_attempts`: every try with Telegram's answer; its start times are also the sender's rate
 *   window (per chat and in all).
 * - `telegram_send_state`: one row, the whole bot's pause after a 429 (Telegram limits the bot).
 * - `messaging_channels.send_problem`: why Telegram last refused a chat (a 403).
 */
export const deliveries = (dialect: DialectName) => ({
  async up(db: Db) {
    const [idType, idBuilder] = idColumn(dialect);
    await db.schema
      .createTable('deliveries')
      .addColumn('id', idType, idBuilder)
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('requester_key', 'text', (c) => c.notNull())
      .addColumn('requested_by', 'text')
      .addColumn('template_id', 'integer', (c) => c.notNull())
      .addColumn('template_name', 'text', (c) => c.notNull())
      .addColumn('template_version', 'integer', (c) => c.notNull())
      .addColumn('schedule_id', 'integer')
      .addColumn('schedule_run_at', 'text')
      .addColumn('channel_id', 'integer', (c) => c.notNull())
      .addColumn('channel_name', 'text', (c) => c.notNull())
      .addColumn('chat_id', 'text', (c) => c.notNull())
      .addColumn('topic_id', 'integer')
      .addColumn('message_thread_id', 'integer')
      .addColumn('text', 'text', (c) => c.notNull())
      .addColumn('parse_mode', 'text', (c) => c.notNull())
      .addColumn('disable_web_preview', 'integer', (c) => c.notNull())
      .addColumn('disable_notification', 'integer', (c) => c.notNull())
      .addColumn('pin', 'integer', (c) => c.notNull())
      .addColumn('data', 'text', (c) => c.notNull())
      .addColumn('idempotency_key', 'text')
      .addColumn('idempotency_expires_at', 'text')
      .addColumn('send_at', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('next_attempt_at', 'text')
      .addColumn('lease_owner', 'text')
      .addColumn('lease_expires_at', 'text')
      .addColumn('telegram_message_id', 'bigint')
      .addColumn('pinned', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('error', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addColumn('sent_at', 'text')
      .execute();
    // What the sender looks for: due queued deliveries in order, and leases that ran out.
    await db.schema
      .createIndex('deliveries_due_idx')
      .on('deliveries')
      .columns(['status', 'next_attempt_at', 'id'])
      .execute();
    await db.schema
      .createIndex('deliveries_created_idx')
      .on('deliveries')
      .columns(['created_at', 'id'])
      .execute();
    await db.schema
      .createIndex('deliveries_channel_idx')
      .on('deliveries')
      .columns(['channel_id', 'id'])
      .execute();
    await db.schema
      .createIndex('deliveries_template_idx')
      .on('deliveries')
      .columns(['template_id', 'id'])
      .execute();
    await db.schema
      .createIndex('deliveries_idempotency_uq')
      .on('deliveries')
      .columns(['requester_key', 'idempotency_key'])
      .unique()
      .where(sql.ref('idempotency_key'), 'is not', null)
      .execute();
    await db.schema
      .createIndex('deliveries_schedule_run_uq')
      .on('deliveries')
      .columns(['schedule_id', 'schedule_run_at'])
      .unique()
      .where(sql.ref('schedule_id'), 'is not', null)
      .execute();

    await db.schema
      .createTable('delivery_attempts')
      .addColumn('id', idType, idBuilder)
      .addColumn('delivery_id', 'integer', (c) => c.notNull().references('deliveries.id').onDelete('cascade'))
      .addColumn('attempt', 'integer', (c) => c.notNull())
      .addColumn('chat_id', 'text', (c) => c.notNull())
      .addColumn('instance', 'text', (c) => c.notNull())
      .addColumn('outcome', 'text', (c) => c.notNull())
      .addColumn('started_at', 'text', (c) => c.notNull())
      .addColumn('finished_at', 'text')
      .addColumn('duration_ms', 'integer')
      .addColumn('error_code', 'integer')
      .addColumn('error', 'text')
      .addColumn('retry_after_seconds', 'integer')
      .execute();
    await db.schema
      .createIndex('delivery_attempts_delivery_idx')
      .on('delivery_attempts')
      .columns(['delivery_id', 'attempt'])
      .execute();
    await db.schema
      .createIndex('delivery_attempts_started_idx')
      .on('delivery_attempts')
      .column('started_at')
      .execute();
    await db.schema
      .createIndex('delivery_attempts_chat_idx')
      .on('delivery_attempts')
      .columns(['chat_id', 'started_at'])
      .execute();

    await db.schema
      .createTable('telegram_send_state')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('paused_until', 'text')
      .addColumn('pause_reason', 'text')
      .execute();
    await db
      .insertInto('telegram_send_state' as never)
      .values({ id: 1 } as never)
      .execute();

    await db.schema.alterTable('messaging_channels').addColumn('send_problem', 'text').execute();
    await db.schema.alterTable('messaging_channels').addColumn('send_problem_at', 'text').execute();
  },
  async down(db: Db) {
    await db.schema.alterTable('messaging_channels').dropColumn('send_problem_at').execute();
    await db.schema.alterTable('messaging_channels').dropColumn('send_problem').execute();
    await db.schema.dropTable('telegram_send_state').execute();
    await db.schema.dropTable('delivery_attempts').execute();
    await db.schema.dropTable('deliveries').execute();
  },
});
