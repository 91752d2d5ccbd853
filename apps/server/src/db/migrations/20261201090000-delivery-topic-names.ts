import { sql, type Kysely } from 'kysely';

type Db = Kysely<unknown>;

/**
 * A delivery keeps the name its forum topic had when it was queued, as it keeps its channel's, so the log
 * reads "Price alerts" rather than a thread number and still does after the topic is renamed or deleted.
 * Deliveries queued before take their topic's current name.
 */
export const deliveryTopicNames = () => ({
  async up(db: Db) {
    await db.schema.alterTable('deliveries').addColumn('topic_name', 'text').execute();
    await sql`
      UPDATE deliveries SET topic_name = (
        SELECT topic_name FROM messaging_topics WHERE messaging_topics.id = deliveries.topic_id
      )
      WHERE topic_id IS NOT NULL
    `.execute(db);
  },
  async down(db: Db) {
    await db.schema.alterTable('deliveries').dropColumn('topic_name').execute();
  },
});
