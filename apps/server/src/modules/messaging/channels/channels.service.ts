import type { Channel, ChannelUpdate, ChannelValues, Topic, TopicUpdate, TopicValues } from '@lumi/contract';
import type { Kysely, Transaction } from 'kysely';
import { AuditedEntity } from '../../../db/audited-entity.js';
import type { Database, Executor } from '../../../db/database.js';
import { lockForTransaction } from '../../../db/locks.js';
import { ConflictError, NotFoundError, ValidationError } from '../../../lib/errors.js';
import { isoTime, type Clock } from '../../../lib/time.js';
import type { Actor, AuditService } from '../../audit/audit.service.js';
import * as repo from './channels.repository.js';

/** Requests that name one Telegram chat take turns until their transaction ends (engineering guide 15). */
function lockChat(trx: Transaction<Database>, chatId: string) {
  return lockForTransaction(trx, [`channel-chat:${chatId.toLowerCase()}`]);
}

/** A topic is found within its channel. */
interface TopicKey {
  channelId: number;
  topicId: number;
}

/** "'A', 'B' and 2 more": templates named in a refusal. */
function nameList(names: string[]): string {
  const shown = names.slice(0, 5).map((n) => `'${n}'`);
  const more = names.length - shown.length;
  return more > 0 ? `${shown.join(', ')} and ${more} more` : shown.join(', ');
}

/**
 * Something other than templates that posts to a channel or topic (alert contact points): the names of
 * what uses it, and what they are called ("contact point"), for the 409 of a delete.
 */
export type ChannelUsage = (
  db: Executor,
  column: 'channel_id' | 'topic_id',
  id: number,
) => Promise<{ kind: string; names: string[] }>;

/**
 * Telegram channels (chats) the bot posts to, and their forum topics (docs/bot-developers/deliveries.md,
 * "Message templates").
 */
export class ChannelsService {
  private readonly channels: AuditedEntity<Channel>;
  private readonly topics: AuditedEntity<Topic, TopicKey>;
  private readonly usages: ChannelUsage[] = [];

  constructor(
    private readonly db: Kysely<Database>,
    audit: AuditService,
    private readonly now: Clock,
  ) {
    this.channels = new AuditedEntity(audit, {
      load: (db, id) => this.load(db, id),
      delete: repo.deleteChannel,
      resourceType: 'channel',
      name: (channel) => channel.channel_name,
    });
    this.topics = new AuditedEntity(audit, {
      load: (db, key: TopicKey) => this.loadTopic(db, key.channelId, key.topicId),
      delete: (db, key) => repo.deleteTopic(db, key.topicId),
      resourceType: 'topic',
      name: (topic) => topic.topic_name,
    });
  }

  /** Another module's users of channels and topics, which a delete must not leave pointing nowhere. */
  usedBy(usage: ChannelUsage): void {
    this.usages.push(usage);
  }

  list(enabled?: boolean): Promise<Channel[]> {
    return repo.listChannels(this.db, enabled);
  }

  get(id: number): Promise<Channel> {
    return this.load(this.db, id);
  }

  private async load(db: Executor, id: number): Promise<Channel> {
    const channel = await repo.findChannel(db, id);
    if (!channel) throw new NotFoundError(`There is no channel ${id}`);
    return channel;
  }

  /**
   * What the sender learnt of a channel's chat: why Telegram refused it (a 403), or null once a message got
   * through. Kept only while the channel still has that chat id.
   */
  setSendProblem(channelId: number, chatId: string, problem: { message: string; at: string } | null) {
    return repo.setSendProblem(this.db, channelId, chatId, problem);
  }

  /** The channel for a field of a request: a missing one is a 422 on that field, not a 404. */
  async requireForField(db: Executor, id: number, field: string): Promise<Channel> {
    const channel = await repo.findChannel(db, id);
    if (!channel) throw ValidationError.field(field, `There is no channel ${id}`);
    return channel;
  }

  async create(actor: Actor, values: ChannelValues): Promise<Channel> {
    return this.db.transaction().execute((trx) =>
      this.channels.create(trx, actor, async () => {
        // The chat's lock first: a request that waited on it sees the other's channel by its name, too.
        await lockChat(trx, values.chat_id);
        await this.ensureNameFree(trx, values.channel_name);
        await this.ensureChatFree(trx, values.chat_id);
        return repo.insertChannel(trx, values, isoTime(this.now()));
      }),
    );
  }

  async update(actor: Actor, id: number, changes: ChannelUpdate): Promise<Channel> {
    return this.db.transaction().execute((trx) =>
      this.channels.update(trx, actor, id, async (before) => {
        if (changes.channel_name !== undefined) await this.ensureNameFree(trx, changes.channel_name, id);
        if (changes.chat_id !== undefined && changes.chat_id.toLowerCase() !== before.chat_id.toLowerCase()) {
          await lockChat(trx, changes.chat_id);
          await this.ensureChatFree(trx, changes.chat_id, id);
        }
        const { description, ...fields } = changes;
        const values = { ...fields, ...(description !== undefined && { description: description ?? '' }) };
        await repo.updateChannel(trx, id, values, isoTime(this.now()));
      }),
    );
  }

  /** Refused while templates post to the channel (409 naming them); its topics go with it. */
  async remove(actor: Actor, id: number): Promise<void> {
    await this.db.transaction().execute((trx) =>
      this.channels.remove(trx, actor, id, async (channel) => {
        await this.refuseWhileUsed(
          trx,
          'channel_id',
          id,
          `The channel '${channel.channel_name}'`,
          'Move them to another channel or delete them first.',
        );
        const topics = await repo.listTopics(trx, id);
        await repo.releaseDeletedTemplates(trx, 'channel_id', id);
        return { topics };
      }),
    );
  }

  async listTopics(channelId: number, enabled?: boolean): Promise<Topic[]> {
    await this.get(channelId);
    return repo.listTopics(this.db, channelId, enabled);
  }

  getTopic(channelId: number, topicId: number): Promise<Topic> {
    return this.loadTopic(this.db, channelId, topicId);
  }

  private async loadTopic(db: Executor, channelId: number, topicId: number): Promise<Topic> {
    const topic = await repo.findTopic(db, topicId);
    if (!topic || topic.channel_id !== channelId) {
      await this.load(db, channelId);
      throw new NotFoundError(`Channel ${channelId} has no topic ${topicId}`);
    }
    return topic;
  }

  /** The topic a template names must be one of its channel's (a 422 on `field` otherwise). */
  async requireTopicOfChannel(
    db: Executor,
    channel: Channel,
    topicId: number,
    field: string,
  ): Promise<Topic> {
    const topic = await repo.findTopic(db, topicId);
    if (!topic) throw ValidationError.field(field, `There is no topic ${topicId}`);
    if (topic.channel_id !== channel.id) {
      throw ValidationError.field(
        field,
        `The topic '${topic.topic_name}' belongs to another channel, not to '${channel.channel_name}'`,
      );
    }
    return topic;
  }

  /** The channel's topic with this message_thread_id, if it has one. */
  async topicByThread(db: Executor, channelId: number, threadId: number): Promise<Topic | null> {
    const topics = await repo.listTopics(db, channelId);
    return topics.find((topic) => topic.message_thread_id === threadId) ?? null;
  }

  async createTopic(actor: Actor, channelId: number, values: TopicValues): Promise<Topic> {
    return this.db.transaction().execute((trx) =>
      this.topics.create(trx, actor, async () => {
        await this.load(trx, channelId);
        await this.ensureTopicFree(trx, channelId, values.topic_name, values.message_thread_id);
        const topicId = await repo.insertTopic(trx, channelId, values, isoTime(this.now()));
        return { channelId, topicId };
      }),
    );
  }

  async updateTopic(actor: Actor, channelId: number, topicId: number, changes: TopicUpdate): Promise<Topic> {
    return this.db.transaction().execute((trx) =>
      this.topics.update(trx, actor, { channelId, topicId }, async (before) => {
        const topic_name = changes.topic_name ?? before.topic_name;
        const message_thread_id = changes.message_thread_id ?? before.message_thread_id;
        await this.ensureTopicFree(trx, channelId, topic_name, message_thread_id, topicId);
        const values = { topic_name, message_thread_id, enabled: changes.enabled };
        await repo.updateTopic(trx, topicId, values, isoTime(this.now()));
      }),
    );
  }

  /** Refused while templates post to the topic (409 naming them). */
  async removeTopic(actor: Actor, channelId: number, topicId: number): Promise<void> {
    await this.db.transaction().execute((trx) =>
      this.topics.remove(trx, actor, { channelId, topicId }, async (topic) => {
        await this.refuseWhileUsed(
          trx,
          'topic_id',
          topicId,
          `The topic '${topic.topic_name}'`,
          'Choose another topic for them or delete them first.',
        );
        await repo.releaseDeletedTemplates(trx, 'topic_id', topicId);
      }),
    );
  }

  /** A 409 naming the templates (or other users, such as contact points) that post to the channel or topic. */
  private async refuseWhileUsed(
    db: Executor,
    column: 'channel_id' | 'topic_id',
    id: number,
    what: string,
    advice: string,
  ) {
    const users = [
      { kind: 'template', names: await repo.templateNamesUsing(db, column, id) },
      ...(await Promise.all(this.usages.map((usage) => usage(db, column, id)))),
    ];
    const user = users.find((candidate) => candidate.names.length > 0);
    if (!user) return;
    const { kind, names } = user;
    const those = names.length === 1 ? `the ${kind}` : `${names.length} ${kind}s:`;
    throw new ConflictError(`${what} is used by ${those} ${nameList(names)}. ${advice}`);
  }

  private async ensureNameFree(db: Executor, name: string, exceptId?: number) {
    const clash = await repo.findChannelByName(db, name);
    if (clash && clash.id !== exceptId)
      throw new ConflictError(`A channel named '${clash.channel_name}' already exists`);
  }

  /**
   * One channel per Telegram chat: a second one would post past the first's pacing and topics (a chat's
   * topics belong to its one channel). Called under lockChat, so two requests naming the same chat take
   * turns, on every instance. Channels that already shared a chat keep working; only a new or changed chat
   * id is checked.
   */
  private async ensureChatFree(trx: Transaction<Database>, chatId: string, exceptId?: number) {
    const clash = await repo.findChannelByChat(trx, chatId);
    if (clash && clash.id !== exceptId) {
      throw new ConflictError(
        `Channel '${clash.channel_name}' already posts to chat ${clash.chat_id}. Add a topic to it, or use another chat.`,
      );
    }
  }

  private async ensureTopicFree(
    db: Executor,
    channelId: number,
    name: string,
    threadId: number,
    exceptId?: number,
  ) {
    const clash = await repo.findClashingTopic(db, channelId, { name, threadId }, exceptId);
    if (!clash) return;
    throw new ConflictError(
      clash.message_thread_id === threadId
        ? `The topic '${clash.topic_name}' of this channel already has message thread ${threadId}`
        : `This channel already has a topic named '${clash.topic_name}'`,
    );
  }
}
