import { z } from 'zod';
import { idSchema, requiredName, requiredString } from '../fields.js';
import { alertConditionAnswerSchema } from './conditions.js';
import { ALERT_LIMITS, ALERT_MESSAGES, ALERT_SEVERITIES, ALERT_STATES } from './constants.js';

/** Contact points and the notifications they are sent, the webhook body and its headers (docs/bot-developers/alerts.md). */

export const CONTACT_POINT_TYPES = ['telegram', 'webhook'] as const;
export type ContactPointType = (typeof CONTACT_POINT_TYPES)[number];

/** The name of the template a Telegram contact point uses unless it names another. */
export const DEFAULT_ALERT_TEMPLATE_NAME = 'alert';

const webhookUrl = requiredString(ALERT_MESSAGES.urlRequired)
  .max(ALERT_LIMITS.urlMax, ALERT_MESSAGES.url)
  // A scheme, a host (a name, an IPv4 address or a bracketed IPv6 one), then an optional port and path.
  .regex(/^https?:\/\/(\[[0-9a-fA-F:.]+\]|[^\s/?#:@[\]]+)(:\d{1,5})?([/?#]\S*)?$/i, ALERT_MESSAGES.url);

const contactPointName = requiredName(
  ALERT_MESSAGES.contactPointNameRequired,
  ALERT_LIMITS.nameMax,
  ALERT_MESSAGES.nameMax,
);

export const contactPointInputSchema = z.discriminatedUnion(
  'type',
  [
    z.object({
      name: contactPointName,
      type: z.literal('telegram'),
      channel_id: z.number({ error: ALERT_MESSAGES.channelRequired }).pipe(idSchema),
      topic_id: idSchema.nullish().transform((v) => v ?? null),
      /** Another template than the `alert` one. */
      template_id: idSchema.nullish().transform((v) => v ?? null),
    }),
    z.object({ name: contactPointName, type: z.literal('webhook'), url: webhookUrl }),
  ],
  { error: 'Choose a type: telegram or webhook' },
);
export type ContactPointInput = z.input<typeof contactPointInputSchema>;
export type ContactPointValues = z.output<typeof contactPointInputSchema>;

/** PUT: the type stays; fields left out keep their values. */
export const contactPointUpdateSchema = z.object({
  name: contactPointName.optional(),
  channel_id: idSchema.optional(),
  topic_id: idSchema.nullable().optional(),
  template_id: idSchema.nullable().optional(),
  url: webhookUrl.optional(),
});
export type ContactPointUpdate = z.output<typeof contactPointUpdateSchema>;

export const contactPointSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    type: z.enum(CONTACT_POINT_TYPES),
    channel_id: z.number().int().nullable(),
    channel_name: z.string().nullable(),
    topic_id: z.number().int().nullable(),
    template_id: z.number().int().nullable(),
    template_name: z.string().nullable(),
    url: z.string().nullable(),
    /** The rules that notify it. */
    rule_count: z.number().int(),
    created_at: z.string(),
    updated_at: z.string(),
    updated_by: z.string().nullable(),
  })
  .meta({ id: 'AlertContactPoint' });
export type ContactPoint = z.infer<typeof contactPointSchema>;

/** A webhook's create answer: the signing secret, shown this once. */
export const contactPointCreatedSchema = contactPointSchema
  .extend({ secret: z.string().nullable() })
  .meta({ id: 'AlertContactPointCreated' });
export type ContactPointCreated = z.infer<typeof contactPointCreatedSchema>;

export const contactPointListResponseSchema = z.object({ contact_points: z.array(contactPointSchema) });
export type ContactPointListResponse = z.infer<typeof contactPointListResponseSchema>;

/** Why a contact point was told something. */
export const ALERT_NOTIFICATION_KINDS = ['firing', 'renotify', 'resolved', 'test'] as const;
export type AlertNotificationKind = (typeof ALERT_NOTIFICATION_KINDS)[number];

export const ALERT_NOTIFICATION_STATUSES = ['queued', 'sent', 'failed'] as const;
export type AlertNotificationStatus = (typeof ALERT_NOTIFICATION_STATUSES)[number];

/** One notification to one contact point: a webhook POST (with its tries), or a Telegram delivery. */
export const alertNotificationSchema = z
  .object({
    id: z.number().int(),
    contact_point_id: z.number().int(),
    rule_id: z.number().int().nullable(),
    rule_name: z.string().nullable(),
    kind: z.enum(ALERT_NOTIFICATION_KINDS),
    status: z.enum(ALERT_NOTIFICATION_STATUSES),
    attempts: z.number().int(),
    next_attempt_at: z.string().nullable(),
    /** The webhook's HTTP status of the last try. */
    response_status: z.number().int().nullable(),
    error: z.string().nullable(),
    /** The Telegram delivery that carries it (delivery log). */
    delivery_id: z.number().int().nullable(),
    created_at: z.string(),
    sent_at: z.string().nullable(),
  })
  .meta({ id: 'AlertNotification' });
export type AlertNotification = z.infer<typeof alertNotificationSchema>;

export const alertNotificationListResponseSchema = z.object({
  notifications: z.array(alertNotificationSchema),
  next_cursor: z.number().int().nullable(),
});
export type AlertNotificationListResponse = z.infer<typeof alertNotificationListResponseSchema>;

/** The JSON body a webhook contact point receives (docs/bot-developers/alerts.md). */
export const alertWebhookBodySchema = z
  .object({
    version: z.literal(1),
    kind: z.enum(ALERT_NOTIFICATION_KINDS),
    notification_id: z.number().int(),
    rule: z
      .object({
        id: z.number().int(),
        name: z.string(),
        severity: z.enum(ALERT_SEVERITIES),
        condition: alertConditionAnswerSchema,
      })
      .nullable(),
    state: z.enum(ALERT_STATES),
    previous_state: z.enum(ALERT_STATES).nullable(),
    value: z.number().nullable(),
    threshold: z.number().nullable(),
    summary: z.string(),
    /** When the rule started firing (or pending). */
    started_at: z.string().nullable(),
    sent_at: z.string(),
    /** The rule in the console. */
    url: z.string(),
  })
  .meta({ id: 'AlertWebhookBody' });
export type AlertWebhookBody = z.infer<typeof alertWebhookBodySchema>;

/** Headers of a webhook POST: the signature is HMAC-SHA256 of `${timestamp}.${body}` with the secret, hex. */
export const ALERT_WEBHOOK_HEADERS = {
  signature: 'x-lumi-signature',
  timestamp: 'x-lumi-timestamp',
  event: 'x-lumi-event',
  notification: 'x-lumi-notification-id',
} as const;
