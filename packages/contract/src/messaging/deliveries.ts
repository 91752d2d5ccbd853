import { z } from 'zod';
import { idSchema, idText, wholeNumberText } from '../fields.js';
import { PARSE_MODES } from './constants.js';
import { sampleData } from './shared-fields.js';
import { groupedNumber } from '../text.js';

/**
 * Deliveries (docs/bot-developers/deliveries.md, "Sending messages (deliveries)"): the one way a message
 * leaves Lumi. A caller asks Lumi to send a template with some data; Lumi renders and checks it at once (422
 * and nothing queued when Telegram would refuse it), stores the rendered text and every send option on the
 * delivery, and a sender posts it within Telegram's limits.
 */

/**
 * `refused`: the request was turned down when it was asked for (a template that does not render, a text
 * Telegram would refuse, a disabled template, channel or topic, a render limit); it is kept with the reason
 * so that no refused send disappears in silence, and is never sent.
 */
export const DELIVERY_STATUSES = [
  'queued',
  'sending',
  'sent',
  'failed',
  'cancelled',
  'unknown',
  'refused',
] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** Who asked for a delivery. */
export const DELIVERY_SOURCES = ['user', 'api_key', 'schedule', 'alert'] as const;
export type DeliverySource = (typeof DELIVERY_SOURCES)[number];

/**
 * What one attempt came to: `sent`; `retry` (network error, timeout or 5xx: tried again later);
 * `rate_limited` (429: the whole bot pauses for retry_after); `failed` (400, 403, or out of tries);
 * `unknown` (the instance stopped before Telegram answered: it may have been sent); `sending` (in flight).
 */
export const DELIVERY_ATTEMPT_OUTCOMES = [
  'sending',
  'sent',
  'retry',
  'rate_limited',
  'failed',
  'unknown',
] as const;
export type DeliveryAttemptOutcome = (typeof DELIVERY_ATTEMPT_OUTCOMES)[number];

export const DELIVERY_LIMITS = {
  /** Deliveries one batch request may queue. */
  batchMax: 500,
  idempotencyKeyMax: 200,
  /** The same idempotency key from the same caller returns the first delivery for this long. */
  idempotencyHours: 24,
  /** How far ahead `send_at` may be. */
  sendAtMaxDays: 366,
  listDefault: 50,
  listMax: 200,
  /** Deliveries older than this are removed (LUMI_DELIVERY_RETENTION_DAYS bounds). */
  retentionDaysMin: 1,
  retentionDaysMax: 3650,
  retentionDaysDefault: 30,
} as const;

export const DELIVERY_MESSAGES = {
  templateRequired: 'Name the template: template_id or template_name',
  templateBoth: 'Give template_id or template_name, not both',
  topicNeedsChannel: 'A topic_id needs the channel it belongs to (channel_id), or the template’s own channel',
  idempotencyKeyMax: `At most ${DELIVERY_LIMITS.idempotencyKeyMax} characters`,
  batchMax: `At most ${groupedNumber(DELIVERY_LIMITS.batchMax)} deliveries per request`,
} as const;

/** One delivery request; the batch form judges each entry with it on its own. */
export const deliveryRequestSchema = z
  .object({
    template_id: idSchema.optional(),
    template_name: z.string().trim().min(1).max(200).optional(),
    data: sampleData,
    /** Another channel than the template's. */
    channel_id: idSchema.nullish(),
    /** A forum topic of the channel; without channel_id, of the template's channel. */
    topic_id: idSchema.nullish(),
    /** The same key from the same caller within 24 h returns the first delivery instead of a second one. */
    idempotency_key: z
      .string()
      .trim()
      .min(1)
      .max(DELIVERY_LIMITS.idempotencyKeyMax, DELIVERY_MESSAGES.idempotencyKeyMax)
      .optional(),
    /** Not before this time (ISO 8601); now when left out. */
    send_at: z.iso
      .datetime({ offset: true, error: 'Must be an ISO 8601 time with Z or an offset' })
      .optional(),
  })
  .superRefine((value, ctx) => {
    if (value.template_id === undefined && value.template_name === undefined) {
      ctx.addIssue({ code: 'custom', path: ['template_id'], message: DELIVERY_MESSAGES.templateRequired });
    } else if (value.template_id !== undefined && value.template_name !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['template_name'], message: DELIVERY_MESSAGES.templateBoth });
    }
  });
export type DeliveryRequest = z.input<typeof deliveryRequestSchema>;

export const deliveryBatchRequestSchema = z.object({
  deliveries: z.array(z.unknown()).min(1).max(DELIVERY_LIMITS.batchMax, DELIVERY_MESSAGES.batchMax),
});
export type DeliveryBatchRequest = z.infer<typeof deliveryBatchRequestSchema>;

export const deliverySchema = z
  .object({
    id: z.number().int(),
    status: z.enum(DELIVERY_STATUSES),
    source: z.enum(DELIVERY_SOURCES),
    /** The user's or API key's name, or the schedule's. */
    requested_by: z.string().nullable(),
    template_id: z.number().int(),
    template_name: z.string(),
    template_version: z.number().int(),
    schedule_id: z.number().int().nullable(),
    channel_id: z.number().int(),
    channel_name: z.string(),
    chat_id: z.string(),
    topic_id: z.number().int().nullable(),
    /** The forum topic's name when the delivery was queued, as the channel's. */
    topic_name: z.string().nullable(),
    message_thread_id: z.number().int().nullable(),
    /** The rendered text, as it is (or was) sent: a later template edit never changes it. */
    text: z.string(),
    parse_mode: z.enum(PARSE_MODES),
    disable_web_preview: z.boolean(),
    disable_notification: z.boolean(),
    pin: z.boolean(),
    /**
     * A text longer than Telegram allows, from a template that splits long messages: how many messages it
     * goes out as, and how many of them Telegram has taken (docs/bot-developers/deliveries.md, "Long
     * messages"). Both null for a message sent whole.
     */
    parts: z.number().int().nullable(),
    parts_sent: z.number().int().nullable(),
    idempotency_key: z.string().nullable(),
    send_at: z.string(),
    /** How many times Lumi has tried to send it. */
    attempts: z.number().int(),
    /** When the sender will next try (queued deliveries). */
    next_attempt_at: z.string().nullable(),
    telegram_message_id: z.number().int().nullable(),
    pinned: z.boolean(),
    /** Why it failed, is unknown or was refused; for a sent one, why it could not be pinned. */
    error: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
    sent_at: z.string().nullable(),
  })
  .meta({ id: 'Delivery' });
export type Delivery = z.infer<typeof deliverySchema>;

export const deliveryAttemptSchema = z
  .object({
    attempt: z.number().int(),
    outcome: z.enum(DELIVERY_ATTEMPT_OUTCOMES),
    started_at: z.string(),
    finished_at: z.string().nullable(),
    duration_ms: z.number().int().nullable(),
    /** Telegram's error_code or the HTTP status, when it answered with an error. */
    error_code: z.number().int().nullable(),
    error: z.string().nullable(),
    retry_after_seconds: z.number().int().nullable(),
    /** Which part of a message sent in parts this attempt sent (1 for the first), null for a whole message. */
    part: z.number().int().nullable(),
  })
  .meta({ id: 'DeliveryAttempt' });
export type DeliveryAttempt = z.infer<typeof deliveryAttemptSchema>;

export const deliveryDetailSchema = deliverySchema
  .extend({
    data: z.record(z.string(), z.unknown()),
    attempt_log: z.array(deliveryAttemptSchema),
  })
  .meta({ id: 'DeliveryDetail' });
export type DeliveryDetail = z.infer<typeof deliveryDetailSchema>;

export const deliveryBatchResponseSchema = z
  .object({
    /** The deliveries queued (or found by their idempotency key), with the index of their request. */
    accepted: z.array(z.object({ index: z.number().int(), delivery: deliverySchema })),
    /** The requests not queued; `delivery_id` when the refusal was kept as a `refused` delivery. */
    rejected: z.array(
      z.object({ index: z.number().int(), detail: z.string(), delivery_id: z.number().int().optional() }),
    ),
  })
  .meta({ id: 'DeliveryBatchResult' });
export type DeliveryBatchResponse = z.infer<typeof deliveryBatchResponseSchema>;

export const deliveryListQuerySchema = z.object({
  status: z.enum(DELIVERY_STATUSES).optional(),
  channel_id: idText.optional(),
  template_id: idText.optional(),
  schedule_id: idText.optional(),
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
  cursor: idText.optional(),
  limit: wholeNumberText()
    .pipe(z.number().int().min(1).max(DELIVERY_LIMITS.listMax))
    .default(DELIVERY_LIMITS.listDefault),
});
export type DeliveryListQuery = z.input<typeof deliveryListQuerySchema>;

export const deliveryListResponseSchema = z.object({
  deliveries: z.array(deliverySchema),
  /** Pass as `cursor` to get the next (older) page; null when there is none. */
  next_cursor: z.number().int().nullable(),
});
export type DeliveryListResponse = z.infer<typeof deliveryListResponseSchema>;

/** Deliveries created in the last 24 hours by status (Overview card). */
export const deliverySummarySchema = z
  .object({
    since: z.string(),
    queued: z.number().int(),
    sending: z.number().int(),
    sent: z.number().int(),
    failed: z.number().int(),
    cancelled: z.number().int(),
    unknown: z.number().int(),
    refused: z.number().int(),
  })
  .meta({ id: 'DeliverySummary' });
export type DeliverySummary = z.infer<typeof deliverySummarySchema>;
