import type { Kysely } from 'kysely';

type Db = Kysely<unknown>;

/**
 * Long messages (docs/bot-developers/deliveries.md, "Long messages"): a template may split a delivery longer
 * than Telegram's 4,096 characters into consecutive messages. A delivery keeps its parts (the text and
 * entities of each, as JSON) and how many Telegram has taken; an attempt says which part it sent. Rows from
 * before are whole messages: no parts.
 */
export const longMessages = () => ({
  async up(db: Db) {
    await db.schema
      .alterTable('messaging_templates')
      .addColumn('split_long_messages', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.alterTable('deliveries').addColumn('parts', 'text').execute();
    await db.schema.alterTable('deliveries').addColumn('parts_sent', 'integer').execute();
    await db.schema.alterTable('delivery_attempts').addColumn('part', 'integer').execute();
  },
  async down(db: Db) {
    await db.schema.alterTable('delivery_attempts').dropColumn('part').execute();
    await db.schema.alterTable('deliveries').dropColumn('parts_sent').execute();
    await db.schema.alterTable('deliveries').dropColumn('parts').execute();
    await db.schema.alterTable('messaging_templates').dropColumn('split_long_messages').execute();
  },
});
