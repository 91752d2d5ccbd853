import type { Channel, Template, TestSendBody, TestSendRecord, TestSendResult } from '@lumi/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/database.js';
import type { TestSendRow } from '../../../db/messaging-tables.js';
import { isoTime, type Clock } from '../../../lib/time.js';
import type { Actor, AuditService } from '../../audit/audit.service.js';
import type { ChannelsService } from '../channels/channels.service.js';
import type { RenderingService } from '../rendering/rendering.service.js';
import type { TemplatesService } from '../templates/templates.service.js';
import { TelegramError, toChatId, type TelegramClient } from './telegram-client.js';
import * as repo from './test-sends.repository.js';

type Body = { data: Record<string, unknown> } & Pick<TestSendBody, 'test_channel_id' | 'test_thread_id'>;

interface Destination {
  channel: Channel;
  topicId: number | null;
  threadId: number | null;
}

function toRecord(row: TestSendRow): TestSendRecord {
  return {
    id: row.id,
    template_id: row.template_id,
    template_version: row.template_version,
    user: row.username,
    channel_id: row.channel_id,
    channel_name: row.channel_name,
    chat_id: row.chat_id,
    topic_id: row.topic_id,
    message_thread_id: row.message_thread_id,
    success: row.success === 1,
    telegram_message_id: row.telegram_message_id === null ? null : Number(row.telegram_message_id),
    pinned: row.pinned === 1,
    error: row.error,
    sent_at: row.created_at,
  };
}

/**
 * Test sends (docs/bot-developers/deliveries.md, "Message templates"): render the template, refuse what
 * Telegram would refuse before sending, call sendMessage (and pinChatMessage with Pin by Default), and record
 * every attempt. A failure is an answer with `success: false` and the reason, recorded like a success.
 */
export class TestSendsService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly audit: AuditService,
    private readonly now: Clock,
    private readonly templates: TemplatesService,
    private readonly channels: ChannelsService,
    private readonly rendering: RenderingService,
    private readonly telegram: TelegramClient,
  ) {}

  async send(actor: Actor, templateId: number, body: Body): Promise<TestSendResult> {
    const template = await this.templates.get(templateId);
    const destination = await this.destination(template, body);
    const outcome = await this.deliver(template, destination, body.data);
    await this.db.transaction().execute(async (trx) => {
      const id = await repo.insertTestSend(trx, {
        template_id: template.id,
        template_version: template.version,
        user_id: actor.id,
        username: actor.username,
        channel_id: destination.channel.id,
        channel_name: destination.channel.channel_name,
        chat_id: destination.channel.chat_id,
        topic_id: destination.topicId,
        message_thread_id: destination.threadId,
        success: outcome.success ? 1 : 0,
        telegram_message_id: outcome.telegram_message_id,
        pinned: outcome.pinned ? 1 : 0,
        error: outcome.error ?? null,
        created_at: isoTime(this.now()),
      });
      await this.audit.record(trx, actor, {
        action: 'template.test_sent',
        resourceType: 'template',
        resourceId: template.id,
        resourceName: template.template_name,
        newValue: {
          test_send_id: id,
          template_version: template.version,
          channel_id: destination.channel.id,
          message_thread_id: destination.threadId,
          ...outcome,
        },
      });
    });
    return outcome;
  }

  async history(templateId: number, limit: number): Promise<TestSendRecord[]> {
    await this.templates.get(templateId);
    return (await repo.listTestSends(this.db, templateId, limit)).map(toRecord);
  }

  /**
   * The template's channel and topic, unless the request names another channel (`test_channel_id`) or a
   * thread (`test_thread_id`). The template's topic belongs to its own channel, so it is not used when
   * the test goes to another channel.
   */
  private async destination(template: Template, body: Body): Promise<Destination> {
    const channel = body.test_channel_id
      ? await this.channels.requireForField(this.db, body.test_channel_id, 'test_channel_id')
      : await this.channels.get(template.channel_id);
    if (body.test_thread_id) {
      const topic = await this.channels.topicByThread(this.db, channel.id, body.test_thread_id);
      return { channel, topicId: topic?.id ?? null, threadId: body.test_thread_id };
    }
    if (template.topic_id !== null && channel.id === template.channel_id) {
      const topic = await this.channels.getTopic(channel.id, template.topic_id);
      return { channel, topicId: topic.id, threadId: topic.message_thread_id };
    }
    return { channel, topicId: null, threadId: null };
  }

  private async deliver(
    template: Template,
    { channel, threadId }: Destination,
    data: Record<string, unknown>,
  ): Promise<TestSendResult> {
    const rendered = await this.rendering.render(template.template_content, template.parse_mode, data);
    if (!rendered.success) {
      return {
        success: false,
        telegram_message_id: null,
        pinned: false,
        error: `Not sent: ${rendered.error}`,
      };
    }
    const chatId = toChatId(channel.chat_id);
    let messageId: number;
    try {
      const message = await this.telegram.call('sendMessage', {
        chat_id: chatId,
        text: rendered.rendered,
        parse_mode: template.parse_mode,
        ...(threadId !== null && { message_thread_id: threadId }),
        link_preview_options: { is_disabled: template.disable_web_preview },
        disable_notification: template.disable_notification,
      });
      messageId = message.message_id;
    } catch (error) {
      if (!(error instanceof TelegramError)) throw error;
      return { success: false, telegram_message_id: null, pinned: false, error: error.message };
    }

    if (!(template.allow_pinning && template.pin_by_default)) {
      return { success: true, telegram_message_id: messageId, pinned: false };
    }
    try {
      await this.telegram.call('pinChatMessage', {
        chat_id: chatId,
        message_id: messageId,
        disable_notification: template.disable_notification,
      });
      return { success: true, telegram_message_id: messageId, pinned: true };
    } catch (error) {
      if (!(error instanceof TelegramError)) throw error;
      return {
        success: true,
        telegram_message_id: messageId,
        pinned: false,
        error: `Sent, but Telegram did not pin it: ${error.message}`,
      };
    }
  }
}
