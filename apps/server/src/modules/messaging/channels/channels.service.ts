import type { Channel, ChannelUpdate, ChannelValues, Topic, TopicUpdate, TopicValues } from '@lumi/contract';
import type { Kysely } from 'kysely';
import type { Database, Executor } from '../../../db/database.js';
import type { ChannelRow, TopicRow } from '../../../db/messaging-tables.js';
import { ConflictError, NotFoundError, ValidationError } from '../../../lib/errors.js';
import { isoTime, type Clock } from '../../../lib/time.js';
import type { Actor, AuditService } from '../../audit/audit.service.js';
import * as repo from './channels.repository.js';

function toChannel(row: ChannelRow): Channel {
  return {
    id: row.id,
    channel_name: row.channel_name,
    chat_id: row.chat_id,
    enabled: row.enabled === 1,
    description: row.description,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

function toTopic(row: TopicRow): Topic {
  return {
    id: row.id,
    channel_id: row.channel_id,
    topic_name: row.topic_name,
    message_thread_id: row.message_thread_id,
    enabled: row.enabled === 1,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** "'A', 'B' and 2 more": templates named in a refusal. */
function nameList(names: string[]): string {
  const shown = names.slice(0, 5).map((n) => `'${n}'`);
  const more = names.length - shown.length;
  return more > 0 ? `${shown.join(', ')} and ${more} more` : shown.join(', ');
}

/** Telegram channels (chats) the bot posts to, and their forum topics (issue 5, "Channels and topics"). */
export class ChannelsService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly audit: AuditService,
    private readonly now: Clock,
  ) {}

  async list(enabled?: boolean): Promise<Channel[]> {
    return (await repo.listChannels(this.db, enabled)).map(toChannel);
  }

  get(id: number): Promise<Channel> {
    return this.load(this.db, id);
  }

  private async load(db: Executor, id: number): Promise<Channel> {
    const row = await repo.findChannel(db, id);
    if (!row) throw new NotFoundError(`There is no channel ${id}`);
    return toChannel(row);
  }

  /** The channel for a field of a request: a missing one is a 422 on that field, not a 404. */
  async requireForField(db: Executor, id: number, field: string): Promise<Channel> {
    const row = await repo.findChannel(db, id);
    if (!row) throw ValidationError.field(field, `There is no channel ${id}`);
    return toChannel(row);
  }

  async create(actor: Actor, values: ChannelValues): Promise<Channel> {
    return this.db.transaction().execute(async (trx) => {
      await this.ensureNameFree(trx, values.channel_name);
      const now = isoTime(this.now());
      const id = await repo.insertChannel(trx, {
        channel_name: values.channel_name,
        channel_name_key: values.channel_name.toLowerCase(),
        chat_id: values.chat_id,
        enabled: values.enabled ? 1 : 0,
        description: values.description,
        created_at: now,
        updated_at: now,
      });
      const channel = await this.load(trx, id);
      await this.audit.record(trx, actor, {
        action: 'channel.created',
        resourceType: 'channel',
        resourceId: id,
        newValue: channel,
      });
      return channel;
    });
  }

  async update(actor: Actor, id: number, changes: ChannelUpdate): Promise<Channel> {
    return this.db.transaction().execute(async (trx) => {
      const before = await this.load(trx, id);
      if (changes.channel_name !== undefined) await this.ensureNameFree(trx, changes.channel_name, id);
      await repo.updateChannel(trx, id, {
        ...(changes.channel_name !== undefined && {
          channel_name: changes.channel_name,
          channel_name_key: changes.channel_name.toLowerCase(),
        }),
        ...(changes.chat_id !== undefined && { chat_id: changes.chat_id }),
        ...(changes.enabled !== undefined && { enabled: changes.enabled ? 1 : 0 }),
        ...(changes.description !== undefined && { description: changes.description ?? '' }),
        updated_at: isoTime(this.now()),
      });
      const after = await this.load(trx, id);
      await this.audit.record(trx, actor, {
        action: 'channel.updated',
        resourceType: 'channel',
        resourceId: id,
        oldValue: before,
        newValue: after,
      });
      return after;
    });
  }

  /** Refused while templates post to the channel (409 naming them); its topics go with it. */
  async remove(actor: Actor, id: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const channel = await this.load(trx, id);
      const users = await repo.templateNamesUsing(trx, 'channel_id', id);
      if (users.length > 0) {
        throw new ConflictError(
          `The channel '${channel.channel_name}' is used by ${users.length === 1 ? 'the template' : `${users.length} templates:`} ${nameList(users)}. ` +
            'Move them to another channel or delete them first.',
        );
      }
      const topics = (await repo.listTopics(trx, id)).map(toTopic);
      await repo.deleteChannel(trx, id);
      await this.audit.record(trx, actor, {
        action: 'channel.deleted',
        resourceType: 'channel',
        resourceId: id,
        oldValue: { ...channel, topics },
      });
    });
  }

  async listTopics(channelId: number, enabled?: boolean): Promise<Topic[]> {
    await this.get(channelId);
    return (await repo.listTopics(this.db, channelId, enabled)).map(toTopic);
  }

  getTopic(channelId: number, topicId: number): Promise<Topic> {
    return this.loadTopic(this.db, channelId, topicId);
  }

  private async loadTopic(db: Executor, channelId: number, topicId: number): Promise<Topic> {
    const row = await repo.findTopic(db, topicId);
    if (!row || row.channel_id !== channelId) {
      await this.load(db, channelId);
      throw new NotFoundError(`Channel ${channelId} has no topic ${topicId}`);
    }
    return toTopic(row);
  }

  /** The topic a template names must be one of its channel's (a 422 on `field` otherwise). */
  async requireTopicOfChannel(
    db: Executor,
    channel: Channel,
    topicId: number,
    field: string,
  ): Promise<Topic> {
    const row = await repo.findTopic(db, topicId);
    if (!row) throw ValidationError.field(field, `There is no topic ${topicId}`);
    if (row.channel_id !== channel.id) {
      throw ValidationError.field(
        field,
        `The topic '${row.topic_name}' belongs to another channel, not to '${channel.channel_name}'`,
      );
    }
    return toTopic(row);
  }

  /** The channel's topic with this message_thread_id, if it has one. */
  async topicByThread(db: Executor, channelId: number, threadId: number): Promise<Topic | null> {
    const rows = await repo.listTopics(db, channelId);
    const row = rows.find((r) => r.message_thread_id === threadId);
    return row ? toTopic(row) : null;
  }

  async createTopic(actor: Actor, channelId: number, values: TopicValues): Promise<Topic> {
    return this.db.transaction().execute(async (trx) => {
      await this.load(trx, channelId);
      await this.ensureTopicFree(trx, channelId, values.topic_name, values.message_thread_id);
      const now = isoTime(this.now());
      const id = await repo.insertTopic(trx, {
        channel_id: channelId,
        topic_name: values.topic_name,
        topic_name_key: values.topic_name.toLowerCase(),
        message_thread_id: values.message_thread_id,
        enabled: values.enabled ? 1 : 0,
        created_at: now,
        updated_at: now,
      });
      const topic = await this.loadTopic(trx, channelId, id);
      await this.audit.record(trx, actor, {
        action: 'topic.created',
        resourceType: 'topic',
        resourceId: id,
        newValue: topic,
      });
      return topic;
    });
  }

  async updateTopic(actor: Actor, channelId: number, topicId: number, changes: TopicUpdate): Promise<Topic> {
    return this.db.transaction().execute(async (trx) => {
      const before = await this.loadTopic(trx, channelId, topicId);
      const name = changes.topic_name ?? before.topic_name;
      const threadId = changes.message_thread_id ?? before.message_thread_id;
      await this.ensureTopicFree(trx, channelId, name, threadId, topicId);
      await repo.updateTopic(trx, topicId, {
        topic_name: name,
        topic_name_key: name.toLowerCase(),
        message_thread_id: threadId,
        ...(changes.enabled !== undefined && { enabled: changes.enabled ? 1 : 0 }),
        updated_at: isoTime(this.now()),
      });
      const after = await this.loadTopic(trx, channelId, topicId);
      await this.audit.record(trx, actor, {
        action: 'topic.updated',
        resourceType: 'topic',
        resourceId: topicId,
        oldValue: before,
        newValue: after,
      });
      return after;
    });
  }

  /** Refused while templates post to the topic (409 naming them). */
  async removeTopic(actor: Actor, channelId: number, topicId: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const topic = await this.loadTopic(trx, channelId, topicId);
      const users = await repo.templateNamesUsing(trx, 'topic_id', topicId);
      if (users.length > 0) {
        throw new ConflictError(
          `The topic '${topic.topic_name}' is used by ${users.length === 1 ? 'the template' : `${users.length} templates:`} ${nameList(users)}. ` +
            'Choose another topic for them or delete them first.',
        );
      }
      await repo.deleteTopic(trx, topicId);
      await this.audit.record(trx, actor, {
        action: 'topic.deleted',
        resourceType: 'topic',
        resourceId: topicId,
        oldValue: topic,
      });
    });
  }

  private async ensureNameFree(db: Executor, name: string, exceptId?: number) {
    const clash = await repo.findChannelByName(db, name);
    if (clash && clash.id !== exceptId)
      throw new ConflictError(`A channel named '${clash.channel_name}' already exists`);
  }

  private async ensureTopicFree(
    db: Executor,
    channelId: number,
    name: string,
    threadId: number,
    exceptId?: number,
  ) {
    const clash = await repo.findClashingTopic(
      db,
      channelId,
      { nameKey: name.toLowerCase(), threadId },
      exceptId,
    );
    if (!clash) return;
    throw new ConflictError(
      clash.message_thread_id === threadId
        ? `The topic '${clash.topic_name}' of this channel already has message thread ${threadId}`
        : `This channel already has a topic named '${clash.topic_name}'`,
    );
  }
}
