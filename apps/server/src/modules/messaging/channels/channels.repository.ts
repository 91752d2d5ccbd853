import type { Channel, ChannelValues, Topic, TopicValues } from '@lumi/contract';
import { sql, type Insertable } from 'kysely';
import type { Executor } from '../../../db/database.js';
import type {
  ChannelRow,
  MessagingChannelsTable,
  MessagingTopicsTable,
  TopicRow,
} from '../../../db/messaging-tables.js';

/**
 * All SQL of the channels and their topics, and their storage encoding: booleans as 0/1 and a lower-case
 * key for each name. Callers see contract values only; an update changes the fields it is given.
 */

function toChannel(row: ChannelRow): Channel {
  const { channel_name_key: _key, ...columns } = row;
  return { ...columns, enabled: row.enabled === 1 };
}

function toTopic(row: TopicRow): Topic {
  const { topic_name_key: _key, ...columns } = row;
  return { ...columns, enabled: row.enabled === 1 };
}

/** `enabled` as stored, when given. */
function flag(enabled: boolean | undefined): number | undefined {
  return enabled === undefined ? undefined : enabled ? 1 : 0;
}

type ChannelColumns = Omit<Insertable<MessagingChannelsTable>, 'created_at' | 'updated_at'>;

/** The columns of the fields given: all of them for a new channel. */
function channelColumns(values: ChannelValues): ChannelColumns;
function channelColumns(values: Partial<ChannelValues>): Partial<ChannelColumns>;
function channelColumns({ enabled, ...values }: Partial<ChannelValues>): Partial<ChannelColumns> {
  return { ...values, channel_name_key: values.channel_name?.toLowerCase(), enabled: flag(enabled) };
}

type TopicColumns = Omit<Insertable<MessagingTopicsTable>, 'channel_id' | 'created_at' | 'updated_at'>;

/** The columns of the fields given: all of them for a new topic. */
function topicColumns(values: TopicValues): TopicColumns;
function topicColumns(values: Partial<TopicValues>): Partial<TopicColumns>;
function topicColumns({ enabled, ...values }: Partial<TopicValues>): Partial<TopicColumns> {
  return { ...values, topic_name_key: values.topic_name?.toLowerCase(), enabled: flag(enabled) };
}

export async function listChannels(db: Executor, enabled?: boolean): Promise<Channel[]> {
  let query = db.selectFrom('messaging_channels').selectAll();
  if (enabled !== undefined) query = query.where('enabled', '=', enabled ? 1 : 0);
  return (await query.orderBy('channel_name_key').execute()).map(toChannel);
}

export async function findChannel(db: Executor, id: number): Promise<Channel | undefined> {
  const row = await db.selectFrom('messaging_channels').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toChannel(row);
}

export async function findChannelByName(db: Executor, name: string): Promise<Channel | undefined> {
  const row = await db
    .selectFrom('messaging_channels')
    .selectAll()
    .where('channel_name_key', '=', name.toLowerCase())
    .executeTakeFirst();
  return row && toChannel(row);
}

/** The channel that posts to `chatId`; a chat's @username matches whatever its case. */
export async function findChannelByChat(db: Executor, chatId: string): Promise<Channel | undefined> {
  const row = await db
    .selectFrom('messaging_channels')
    .selectAll()
    .where(sql<string>`lower(chat_id)`, '=', chatId.toLowerCase())
    .orderBy('id')
    .executeTakeFirst();
  return row && toChannel(row);
}

export async function insertChannel(db: Executor, values: ChannelValues, now: string): Promise<number> {
  const row = { ...channelColumns(values), created_at: now, updated_at: now };
  return (await db.insertInto('messaging_channels').values(row).returning('id').executeTakeFirstOrThrow()).id;
}

export async function updateChannel(db: Executor, id: number, changes: Partial<ChannelValues>, now: string) {
  const row = { ...channelColumns(changes), updated_at: now };
  const { chat_id: chatId } = changes;
  await db
    .updateTable('messaging_channels')
    .set((eb) => ({
      ...row,
      // A new chat id is another chat: what Telegram said of the old one no longer applies.
      ...(chatId !== undefined && {
        send_problem: eb.case().when('chat_id', '=', chatId).then(eb.ref('send_problem')).else(null).end(),
        send_problem_at: eb
          .case()
          .when('chat_id', '=', chatId)
          .then(eb.ref('send_problem_at'))
          .else(null)
          .end(),
      }),
    }))
    .where('id', '=', id)
    .execute();
}

/**
 * Notes why Telegram refused to deliver to a channel (`problem`), or clears it (null) once a message got
 * through. Only a channel whose chat id is still `chatId` is changed: an edit meanwhile made it another chat.
 */
export async function setSendProblem(
  db: Executor,
  id: number,
  chatId: string,
  problem: { message: string; at: string } | null,
): Promise<void> {
  await db
    .updateTable('messaging_channels')
    .set({ send_problem: problem?.message ?? null, send_problem_at: problem?.at ?? null })
    .where('id', '=', id)
    .where('chat_id', '=', chatId)
    .$if(problem === null, (qb) => qb.where('send_problem', 'is not', null))
    .execute();
}

/** False when there was no such row (another request deleted it first). */
export async function deleteChannel(db: Executor, id: number): Promise<boolean> {
  const result = await db.deleteFrom('messaging_channels').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
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
    .where('deleted_at', 'is', null)
    .orderBy('template_name_key')
    .execute();
  return rows.map((r) => r.template_name);
}

/**
 * Deleted templates let go of a channel (and so of its topics) or a topic about to be deleted; their
 * versions still say where they posted.
 */
export async function releaseDeletedTemplates(db: Executor, column: 'channel_id' | 'topic_id', id: number) {
  await db
    .updateTable('messaging_templates')
    .set(column === 'channel_id' ? { channel_id: null, topic_id: null } : { topic_id: null })
    .where(column, '=', id)
    .where('deleted_at', 'is not', null)
    .execute();
}

export async function listTopics(db: Executor, channelId: number, enabled?: boolean): Promise<Topic[]> {
  let query = db.selectFrom('messaging_topics').selectAll().where('channel_id', '=', channelId);
  if (enabled !== undefined) query = query.where('enabled', '=', enabled ? 1 : 0);
  return (await query.orderBy('topic_name_key').execute()).map(toTopic);
}

export async function findTopic(db: Executor, id: number): Promise<Topic | undefined> {
  const row = await db.selectFrom('messaging_topics').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toTopic(row);
}

/** A topic of the channel with this name or thread id, other than `exceptId`: what would clash. */
export async function findClashingTopic(
  db: Executor,
  channelId: number,
  values: { name: string; threadId: number },
  exceptId?: number,
): Promise<Topic | undefined> {
  const row = await db
    .selectFrom('messaging_topics')
    .selectAll()
    .where('channel_id', '=', channelId)
    .where((eb) =>
      eb.or([
        eb('topic_name_key', '=', values.name.toLowerCase()),
        eb('message_thread_id', '=', values.threadId),
      ]),
    )
    .$if(exceptId !== undefined, (q) => q.where('id', '!=', exceptId!))
    .executeTakeFirst();
  return row && toTopic(row);
}

export async function insertTopic(
  db: Executor,
  channelId: number,
  values: TopicValues,
  now: string,
): Promise<number> {
  const row = { ...topicColumns(values), channel_id: channelId, created_at: now, updated_at: now };
  return (await db.insertInto('messaging_topics').values(row).returning('id').executeTakeFirstOrThrow()).id;
}

export async function updateTopic(db: Executor, id: number, changes: Partial<TopicValues>, now: string) {
  const row = { ...topicColumns(changes), updated_at: now };
  await db.updateTable('messaging_topics').set(row).where('id', '=', id).execute();
}

/** False when there was no such row (another request deleted it first). */
export async function deleteTopic(db: Executor, id: number): Promise<boolean> {
  const result = await db.deleteFrom('messaging_topics').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}
