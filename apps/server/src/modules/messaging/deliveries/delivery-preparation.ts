import type { deliveryRequestSchema } from '@lumi/contract';
import {
  DELIVERY_LIMITS,
  onlyTooLong,
  type Channel,
  type DeliverySource,
  type Template,
} from '@lumi/contract';
import type { FormattedText } from '@lumi/telegram-markup';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { Database } from '../../../db/database.js';
import { ValidationError } from '../../../lib/errors.js';
import { isoAfter, isoTime, type Clock } from '../../../lib/time.js';
import type { Actor } from '../../audit/audit.service.js';
import type { ChannelsService } from '../channels/channels.service.js';
import { messageParts } from '../rendering/message-parts.js';
import type { RenderingService } from '../rendering/rendering.service.js';
import type { TemplatesService } from '../templates/templates.service.js';
import type { NewDelivery } from './deliveries.repository.js';

/** Who asks for a delivery: its idempotency keys are its own. */
export interface Requester {
  source: DeliverySource;
  /** 'user:3', 'key:5', 'schedule:7'. */
  key: string;
  /** The user's or key's name, as the log shows it. */
  name: string | null;
  /** The user who asked (audited); null for API keys and schedules. */
  actor: Actor | null;
}

/** A request to send a template with data, as the contract reads it. */
export type DeliveryRequest = z.output<typeof deliveryRequestSchema>;

/** A request checked and rendered, ready to be stored. */
/** What a refusal for length says a template can do about it (docs/bot-developers/deliveries.md). */
const SPLIT_HINT = 'Turn on “Split long messages” in the template to send it as several messages.';

export interface Prepared {
  request: DeliveryRequest;
  template: Template;
  channel: Channel;
  topic: { id: number; topic_name: string; message_thread_id: number } | null;
  text: string;
  /** A text too long for one message, from a template that splits: the messages it goes out as. */
  parts: FormattedText[] | null;
  sendAt: string;
}

/**
 * A request the pipeline turned down once its template was known (a disabled template, channel or topic,
 * a template that does not render, a text Telegram would refuse, a render limit): it is kept as a delivery
 * in state `refused` before the caller gets the 422, so no refused send disappears in silence.
 */
export class Refusal extends Error {
  constructor(
    readonly reason: ValidationError,
    readonly target: Omit<Prepared, 'text' | 'sendAt'> & { text: string },
  ) {
    super(reason.message);
  }
}

const DAY_MS = 86_400_000;

/** The look-ups of one request or batch (`DeliveryPreparation.lookups`). */
export type Lookups = ReturnType<DeliveryPreparation['lookups']>;

/**
 * A delivery request made ready to store (the "Accept" stage of ./README.md): its template, channel and
 * topic looked up and checked, its text rendered and checked as Telegram would read it, and its row as it
 * is stored, queued or refused.
 */
export class DeliveryPreparation {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: Clock,
    private readonly templates: TemplatesService,
    private readonly channels: ChannelsService,
    private readonly rendering: RenderingService,
  ) {}

  /**
   * The template, channel and topic look-ups of one request or batch, each made once: a broadcast names
   * the same template (and often the same channel) hundreds of times.
   */
  lookups() {
    const cache = new Map<string, Promise<unknown>>();
    const once = <T>(key: string, load: () => Promise<T>): Promise<T> => {
      let hit = cache.get(key) as Promise<T> | undefined;
      if (!hit) {
        hit = load();
        cache.set(key, hit);
      }
      return hit;
    };
    return {
      template: (ref: { id?: number; name?: string }) =>
        once(`template:${ref.id ?? ''}:${ref.name ?? ''}`, () => this.templates.requireForField(ref)),
      channel: (id: number, field: string | null) =>
        once(`channel:${id}:${field ?? ''}`, () =>
          field ? this.channels.requireForField(this.db, id, field) : this.channels.get(id),
        ),
      topic: (channel: Channel, topicId: number) =>
        once(`topic:${channel.id}:${topicId}`, () =>
          this.channels.requireTopicOfChannel(this.db, channel, topicId, 'topic_id'),
        ),
    };
  }

  /**
   * Checks the request against the template, channel and topic, and renders it as it will be sent. A
   * template, channel or topic that does not exist, or a send_at too far ahead, is the caller's mistake (a
   * plain 422); what the pipeline refuses once the target is known throws a Refusal, to be kept.
   */
  async prepare(request: DeliveryRequest, lookups = this.lookups()): Promise<Prepared> {
    const template = await lookups.template({ id: request.template_id, name: request.template_name });
    const channel = request.channel_id
      ? await lookups.channel(request.channel_id, 'channel_id')
      : await lookups.channel(template.channel_id, null);
    const topicId = request.topic_id ?? (channel.id === template.channel_id ? template.topic_id : null);
    const found = topicId ? await lookups.topic(channel, topicId) : null;
    const topic = found && {
      id: found.id,
      topic_name: found.topic_name,
      message_thread_id: found.message_thread_id,
    };
    const refuse = (reason: ValidationError, text = '') =>
      new Refusal(reason, { request, template, channel, topic, text, parts: null });
    if (!template.enabled) {
      throw refuse(
        ValidationError.field('template_id', `The template '${template.template_name}' is disabled`),
      );
    }
    if (!channel.enabled) {
      throw refuse(
        ValidationError.field(
          request.channel_id ? 'channel_id' : 'template_id',
          `The channel '${channel.channel_name}' is disabled`,
        ),
      );
    }
    if (found && !found.enabled) {
      throw refuse(ValidationError.field('topic_id', `The topic '${found.topic_name}' is disabled`));
    }
    const now = this.now();
    let sendAt = isoTime(now);
    if (request.send_at) {
      const at = Date.parse(request.send_at);
      if (at > now + DELIVERY_LIMITS.sendAtMaxDays * DAY_MS) {
        throw ValidationError.field(
          'send_at',
          `send_at may be at most ${DELIVERY_LIMITS.sendAtMaxDays} days ahead`,
        );
      }
      if (at > now) sendAt = isoTime(at);
    }
    let rendered;
    try {
      rendered = await this.rendering.render(template.template_content, template.parse_mode, request.data);
    } catch (error) {
      // A render limit is the template's or the data's doing; a busy renderer (503, 429) is not kept.
      if (error instanceof ValidationError) throw refuse(error);
      throw error;
    }
    let parts: FormattedText[] | null = null;
    if (!rendered.success) {
      const tooLong = onlyTooLong(rendered);
      if (!tooLong || !template.split_long_messages) {
        const hint = tooLong ? `. ${SPLIT_HINT}` : '';
        throw refuse(
          ValidationError.field('data', `Not queued: ${rendered.error}${hint}`),
          rendered.rendered,
        );
      }
      parts = messageParts(template.parse_mode, rendered.rendered);
    }
    return { request, template, channel, topic, text: rendered.rendered, parts, sendAt };
  }

  /** The row of a refused request: never sent, holding the reason and whatever text was rendered. */
  refusedRowOf(
    requester: Requester,
    refusal: Refusal,
    run: { schedule_id: number; schedule_run_at: string } | null,
  ): NewDelivery {
    const now = isoTime(this.now());
    return {
      ...this.rowOf(requester, { ...refusal.target, sendAt: now }, run),
      status: 'refused',
      idempotency_key: null,
      idempotency_expires_at: null,
      next_attempt_at: null,
      error: refusal.reason.message,
    };
  }

  /** The row of a prepared delivery, as it is stored. */
  rowOf(
    requester: Requester,
    prepared: Prepared,
    run: { schedule_id: number; schedule_run_at: string } | null,
  ): NewDelivery {
    const { request, template, channel, topic } = prepared;
    const key = request.idempotency_key ?? null;
    const now = this.now();
    return {
      status: 'queued',
      source: requester.source,
      requester_key: requester.key,
      requested_by: requester.name,
      template_id: template.id,
      template_name: template.template_name,
      template_version: template.version,
      schedule_id: run?.schedule_id ?? null,
      schedule_run_at: run?.schedule_run_at ?? null,
      channel_id: channel.id,
      channel_name: channel.channel_name,
      chat_id: channel.chat_id,
      topic_id: topic?.id ?? null,
      topic_name: topic?.topic_name ?? null,
      message_thread_id: topic?.message_thread_id ?? null,
      text: prepared.text,
      parts: prepared.parts && JSON.stringify(prepared.parts),
      parts_sent: prepared.parts && 0,
      parse_mode: template.parse_mode,
      disable_web_preview: template.disable_web_preview ? 1 : 0,
      disable_notification: template.disable_notification ? 1 : 0,
      pin: template.allow_pinning && template.pin_by_default ? 1 : 0,
      data: JSON.stringify(request.data),
      idempotency_key: key,
      idempotency_expires_at: key ? isoAfter(DELIVERY_LIMITS.idempotencyHours * 3600_000, now) : null,
      send_at: prepared.sendAt,
      next_attempt_at: prepared.sendAt,
      created_at: isoTime(now),
      updated_at: isoTime(now),
    };
  }
}
