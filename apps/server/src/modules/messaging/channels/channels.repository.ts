import type { Insertable, Updateable } from 'kysely';
import type {
  ChannelRow,
  MessagingChannelsTable,
  MessagingTopicsTable,
  TopicRow,
} from '../../../db/messaging-tables.js';
import type { Executor } from '../../../db/database.js';

export function listChannels(db: Executor, enabled?: boolean): Promise<ChannelRow[]> {
  let query = db.selectFrom('messaging_channels').selectAll();
  if (enabled !== undefined) query = query.where('enabled', '=', enabled ? 1 : 0);
  return query.orderBy('channel_name_key').execute();
}

export function findChannel(db: Executor, id: number): Promise<ChannelRow | undefined> {
  return db.selectFrom('messaging_channels').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findChannelByName(db: Executor, name: string): Promise<ChannelRow | undefined> {
  return db
    .selectFrom('messaging_channels')
    .selectAll()
    .where('channel_name_key', '=', name.toLowerCase())
    .executeTakeFirst();
}

export async function insertChannel(db: Executor, row: Insertable<MessagingChannelsTable>): Promise<number> {
  const inserted = await db
    .insertInto('messaging_channels')
    .values(row)
    .returning('id')
    .executeTakeFirstOrThrow();
  return inserted.id;
}

export async function updateChannel(db: Executor, id: number, changes: Updateable<MessagingChannelsTable>) {
  await db.updateTable('messaging_channels').set(changes).where('id', '=', id).execute();
}

export async function deleteChannel(db: Executor, id: number) {
  await db.deleteFrom('messaging_channels').where('id', '=', id).execute();
}

/** Names of the templates that post to a channel (column 'channel_id') or to a topic ('topic_id'). */
export async function templateNamesUsing(
  db: Executor,
  column: 'channel_id' | 'topic_id',
  id: number,
): Promise<string[]> {
  const rows = await db
    .selectFrom('messaging_templates')
    .select('template_name')
    .where(column, '=', id)
    .orderBy('template_name_key')
    .execute();
  return rows.map((r) => r.template_name);
}

export function listTopics(db: Executor, channelId: number, enabled?: boolean): Promise<TopicRow[]> {
  let query = db.selectFrom('messaging_topics').selectAll().where('channel_id', '=', channelId);
  if (enabled !== undefined) query = query.where('enabled', '=', enabled ? 1 : 0);
  return query.orderBy('topic_name_key').execute();
}

export function findTopic(db: Executor, id: number): Promise<TopicRow | undefined> {
  return db.selectFrom('messaging_topics').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A topic of the channel with this name or thread id, other than `exceptId`: what would clash. */
export function findClashingTopic(
  db: Executor,
  channelId: number,
  values: { nameKey: string; threadId: number },
  exceptId?: number,
): Promise<TopicRow | undefined> {
  return db
    .selectFrom('messaging_topics')
    .selectAll()
    .where('channel_id', '=', channelId)
    .where((eb) =>
      eb.or([eb('topic_name_key', '=', values.nameKey), eb('message_thread_id', '=', values.threadId)]),
    )
    .$if(exceptId !== undefined, (q) => q.where('id', '!=', exceptId!))
    .executeTakeFirst();
}

export async function insertTopic(db: Executor, row: Insertable<MessagingTopicsTable>): Promise<number> {
  const inserted = await db
    .insertInto('messaging_topics')
    .values(row)
    .returning('id')
    .executeTakeFirstOrThrow();
  return inserted.id;
}

export async function updateTopic(db: Executor, id: number, changes: Updateable<MessagingTopicsTable>) {
  await db.updateTable('messaging_topics').set(changes).where('id', '=', id).execute();
}

export async function deleteTopic(db: Executor, id: number) {
  await db.deleteFrom('messaging_topics').where('id', '=', id).execute();
}
