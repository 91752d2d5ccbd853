import { z } from 'zod';
import { idSchema, idText, requiredString, visibleName, wholeNumberText } from './fields.js';
import { isTimeZone, WEEKDAYS } from './messaging/schedules.js';

/**
 * Alerts (docs/bot-developers/alerts.md): rules that watch the telemetry Lumi stores, a state machine per
 * rule (OK → Pending → Firing → OK), contact points that are told (a Telegram chat through the delivery
 * pipeline, or a signed webhook), and silences that keep an alert from notifying without stopping it.
 */

export const ALERT_SEVERITIES = ['warning', 'critical'] as const;
export type AlertSeverity = (typeof ALERT_SEVERITIES)[number];

/** A rule's state: `ok` is also where a resolved alert goes. */
export const ALERT_STATES = ['ok', 'pending', 'firing'] as const;
export type AlertState = (typeof ALERT_STATES)[number];

/** What a rule does when its condition has no data: count it as OK, as holding, or keep the last state. */
export const ALERT_NO_DATA = ['ok', 'alerting', 'keep'] as const;
export type AlertNoData = (typeof ALERT_NO_DATA)[number];

export const ALERT_CONDITION_TYPES = [
  'heartbeat_missing',
  'telegram_disconnected',
  'errors',
  'llm_cost',
  'llm_failure_rate',
  'llm_latency',
  'budget_usage',
  'integration_success_rate',
  'market_data_stale',
  'cache_hit_rate',
  'delivery_failures',
] as const;
export type AlertConditionType = (typeof ALERT_CONDITION_TYPES)[number];

export const ALERT_CONDITION_LABELS: Record<AlertConditionType, string> = {
  heartbeat_missing: 'Bot heartbeat missing',
  telegram_disconnected: 'Bot not connected to Telegram',
  errors: 'Bot errors',
  llm_cost: 'LLM spend',
  llm_failure_rate: 'LLM failure rate',
  llm_latency: 'LLM latency',
  budget_usage: 'Token budget usage',
  integration_success_rate: 'Integration success rate',
  market_data_stale: 'Market data stale',
  cache_hit_rate: 'Cache hit rate',
  delivery_failures: 'Failed or refused deliveries',
};

export const ALERT_LIMITS = {
  nameMax: 200,
  /** A window of minutes reaches back at most a day (the minute rollups are kept two days). */
  windowMinutesMax: 1440,
  heartbeatSecondsMin: 10,
  heartbeatSecondsMax: 86_400,
  pendingSecondsMax: 86_400,
  renotifyMinutesMax: 10_080,
  countMax: 1_000_000_000,
  usdMax: 1_000_000_000,
  latencyMsMax: 3_600_000,
  budgetPercentMax: 1000,
  contactPointsPerRule: 10,
  commentMax: 1000,
  urlMax: 2000,
  dimensionMax: 200,
  silenceDurationMinutesMax: 10_080,
  historyDefault: 50,
  historyMax: 200,
  notificationsDefault: 50,
  notificationsMax: 200,
} as const;

export const ALERT_MESSAGES = {
  nameRequired: 'Name the rule',
  nameMax: `At most ${ALERT_LIMITS.nameMax} characters`,
  contactPointNameRequired: 'Name the contact point',
  conditionType: `Choose a condition: ${ALERT_CONDITION_TYPES.join(', ')}`,
  wholeMinutes: `A whole number of minutes from 1 to ${ALERT_LIMITS.windowMinutesMax}`,
  heartbeatSeconds: `A whole number of seconds from ${ALERT_LIMITS.heartbeatSecondsMin} to ${ALERT_LIMITS.heartbeatSecondsMax.toLocaleString('en')}`,
  count: 'A whole number, 0 or more',
  minCalls: 'A whole number, 1 or more',
  usd: 'An amount in US dollars above 0',
  percent: 'A percentage from 0 to 100',
  budgetPercent: `A percentage from 1 to ${ALERT_LIMITS.budgetPercentMax}`,
  latencyMs: 'A latency in milliseconds above 0',
  providerRequired: 'Choose the provider whose budget to watch',
  serviceRequired: 'Name the service to watch',
  pendingSeconds: `A whole number of seconds from 0 to ${ALERT_LIMITS.pendingSecondsMax.toLocaleString('en')}`,
  renotifyMinutes: `A whole number of minutes from 0 (never) to ${ALERT_LIMITS.renotifyMinutesMax.toLocaleString('en')}`,
  contactPointsMax: `At most ${ALERT_LIMITS.contactPointsPerRule} contact points`,
  contactPointsRequired: 'Choose at least one contact point, or disable the rule',
  channelRequired: 'Choose the channel the alerts go to',
  urlRequired: 'Enter the URL the alerts are posted to',
  url: 'Use an http:// or https:// URL such as https://example.com/hooks/lumi',
  silenceScope: 'Mute one rule or one severity, not both',
  endsAt: 'Must be an ISO 8601 time with Z or an offset',
  endsAfterStart: 'The end must be after the start',
  endsPassed: 'The end has already passed; choose a later time',
  time: 'Use a 24-hour time such as 02:00',
  weekdays: 'Choose at least one day',
  durationMinutes: `A whole number of minutes from 1 to ${ALERT_LIMITS.silenceDurationMinutesMax.toLocaleString('en')}`,
  timezone: 'Use an IANA time zone such as UTC or Europe/Berlin',
  commentRequired: 'Say why the alerts are muted',
  commentMax: `At most ${ALERT_LIMITS.commentMax} characters`,
} as const;

const minutes = z
  .number({ error: ALERT_MESSAGES.wholeMinutes })
  .int(ALERT_MESSAGES.wholeMinutes)
  .min(1, ALERT_MESSAGES.wholeMinutes)
  .max(ALERT_LIMITS.windowMinutesMax, ALERT_MESSAGES.wholeMinutes);
const count = z
  .number({ error: ALERT_MESSAGES.count })
  .int(ALERT_MESSAGES.count)
  .min(0, ALERT_MESSAGES.count)
  .max(ALERT_LIMITS.countMax, ALERT_MESSAGES.count);
const minCalls = z
  .number({ error: ALERT_MESSAGES.minCalls })
  .int(ALERT_MESSAGES.minCalls)
  .min(1, ALERT_MESSAGES.minCalls)
  .max(ALERT_LIMITS.countMax, ALERT_MESSAGES.minCalls);
const percent = z
  .number({ error: ALERT_MESSAGES.percent })
  .min(0, ALERT_MESSAGES.percent)
  .max(100, ALERT_MESSAGES.percent);
/** An optional provider, model, source or service name; blank means "all". */
const dimension = z
  .string()
  .trim()
  .max(ALERT_LIMITS.dimensionMax)
  .nullish()
  .transform((v) => (v ? v : null));

/**
 * The conditions a rule can watch (docs/bot-developers/alerts.md, "Conditions"); each is evaluated from
 * rollups and latest reports.
 */
export const alertConditionSchema = z.discriminatedUnion(
  'type',
  [
    /** No heartbeat for `seconds`. */
    z.object({
      type: z.literal('heartbeat_missing'),
      seconds: z
        .number({ error: ALERT_MESSAGES.heartbeatSeconds })
        .int(ALERT_MESSAGES.heartbeatSeconds)
        .min(ALERT_LIMITS.heartbeatSecondsMin, ALERT_MESSAGES.heartbeatSeconds)
        .max(ALERT_LIMITS.heartbeatSecondsMax, ALERT_MESSAGES.heartbeatSeconds),
    }),
    /** The latest heartbeat's telegram_status is not `connected`. */
    z.object({ type: z.literal('telegram_disconnected') }),
    /** More than `count` error events in the last `minutes`, of one source or all. */
    z.object({ type: z.literal('errors'), count, minutes, source: dimension }),
    /** LLM cost in the last hour (60 minutes) or today (LUMI_TIMEZONE) above `usd`. */
    z.object({
      type: z.literal('llm_cost'),
      usd: z
        .number({ error: ALERT_MESSAGES.usd })
        .positive(ALERT_MESSAGES.usd)
        .max(ALERT_LIMITS.usdMax, ALERT_MESSAGES.usd),
      window: z.enum(['hour', 'day']),
      provider: dimension,
      model: dimension,
    }),
    /** Share of failed LLM calls in the last `minutes` above `percent`, once there are `min_calls`. */
    z.object({
      type: z.literal('llm_failure_rate'),
      percent,
      minutes,
      min_calls: minCalls,
      provider: dimension,
      model: dimension,
    }),
    /** Average latency of LLM calls in the last `minutes` above `ms`. */
    z.object({
      type: z.literal('llm_latency'),
      ms: z
        .number({ error: ALERT_MESSAGES.latencyMs })
        .positive(ALERT_MESSAGES.latencyMs)
        .max(ALERT_LIMITS.latencyMsMax, ALERT_MESSAGES.latencyMs),
      minutes,
      provider: dimension,
      model: dimension,
    }),
    /** Today's usage of a provider's token budget (tokens or cost, the higher) at or above `percent`. */
    z.object({
      type: z.literal('budget_usage'),
      provider: requiredString(ALERT_MESSAGES.providerRequired).max(ALERT_LIMITS.dimensionMax),
      percent: z
        .number({ error: ALERT_MESSAGES.budgetPercent })
        .min(1, ALERT_MESSAGES.budgetPercent)
        .max(ALERT_LIMITS.budgetPercentMax, ALERT_MESSAGES.budgetPercent),
    }),
    /** Success rate of an integration's calls in the last `minutes` below `percent`, once there are `min_calls`. */
    z.object({
      type: z.literal('integration_success_rate'),
      service: requiredString(ALERT_MESSAGES.serviceRequired).max(ALERT_LIMITS.dimensionMax),
      percent,
      minutes,
      min_calls: minCalls,
    }),
    /** The last candle is older than `minutes`, or (with `websocket`) the websocket is not connected. */
    z.object({ type: z.literal('market_data_stale'), minutes, websocket: z.boolean().default(true) }),
    /** Cache hit rate in the last `minutes` below `percent`, once there are `min_lookups`. */
    z.object({ type: z.literal('cache_hit_rate'), percent, minutes, min_lookups: minCalls.default(1) }),
    /** More than `count` deliveries failed or were refused in the last `minutes`. */
    z.object({ type: z.literal('delivery_failures'), count, minutes }),
  ],
  { error: ALERT_MESSAGES.conditionType },
);
export type AlertConditionInput = z.input<typeof alertConditionSchema>;
export type AlertCondition = z.output<typeof alertConditionSchema>;

const storedDimension = z.string().nullable();

/**
 * A condition as answers and webhook bodies carry it: the shapes above as stored, typed but not
 * re-validated, and without the input's transforms (a response is encoded, and a transform cannot be).
 */
export const alertConditionAnswerSchema = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('heartbeat_missing'), seconds: z.number() }),
    z.object({ type: z.literal('telegram_disconnected') }),
    z.object({ type: z.literal('errors'), count: z.number(), minutes: z.number(), source: storedDimension }),
    z.object({
      type: z.literal('llm_cost'),
      usd: z.number(),
      window: z.enum(['hour', 'day']),
      provider: storedDimension,
      model: storedDimension,
    }),
    z.object({
      type: z.literal('llm_failure_rate'),
      percent: z.number(),
      minutes: z.number(),
      min_calls: z.number(),
      provider: storedDimension,
      model: storedDimension,
    }),
    z.object({
      type: z.literal('llm_latency'),
      ms: z.number(),
      minutes: z.number(),
      provider: storedDimension,
      model: storedDimension,
    }),
    z.object({ type: z.literal('budget_usage'), provider: z.string(), percent: z.number() }),
    z.object({
      type: z.literal('integration_success_rate'),
      service: z.string(),
      percent: z.number(),
      minutes: z.number(),
      min_calls: z.number(),
    }),
    z.object({ type: z.literal('market_data_stale'), minutes: z.number(), websocket: z.boolean() }),
    z.object({
      type: z.literal('cache_hit_rate'),
      percent: z.number(),
      minutes: z.number(),
      min_lookups: z.number(),
    }),
    z.object({ type: z.literal('delivery_failures'), count: z.number(), minutes: z.number() }),
  ])
  .meta({ id: 'AlertCondition' });

/** What a condition came to at one evaluation. */
export const alertEvaluationSchema = z
  .object({
    /** The measured value (seconds, count, US dollars, percent or ms); null when there is no data. */
    value: z.number().nullable(),
    threshold: z.number(),
    /** The unit `value` and `threshold` are in, as the console prints it. */
    unit: z.enum(['s', 'min', 'count', 'usd', 'percent', 'ms', 'bool']),
    /** True when the condition holds; null when there is no data. */
    holds: z.boolean().nullable(),
    /** One sentence: "No heartbeat for 340 s (threshold 60 s)". */
    summary: z.string(),
  })
  .meta({ id: 'AlertEvaluation' });
export type AlertEvaluation = z.infer<typeof alertEvaluationSchema>;

const pendingSeconds = z
  .number({ error: ALERT_MESSAGES.pendingSeconds })
  .int(ALERT_MESSAGES.pendingSeconds)
  .min(0, ALERT_MESSAGES.pendingSeconds)
  .max(ALERT_LIMITS.pendingSecondsMax, ALERT_MESSAGES.pendingSeconds);
const renotifyMinutes = z
  .number({ error: ALERT_MESSAGES.renotifyMinutes })
  .int(ALERT_MESSAGES.renotifyMinutes)
  .min(0, ALERT_MESSAGES.renotifyMinutes)
  .max(ALERT_LIMITS.renotifyMinutesMax, ALERT_MESSAGES.renotifyMinutes);

/**
 * A rule's fields (docs/bot-developers/alerts.md): the one list the create, update and audit shapes are built
 * from.
 */
const alertRuleFields = {
  name: visibleName(
    requiredString(ALERT_MESSAGES.nameRequired).max(ALERT_LIMITS.nameMax, ALERT_MESSAGES.nameMax),
  ),
  condition: alertConditionSchema,
  severity: z.enum(ALERT_SEVERITIES),
  /** How long the condition must hold before the rule fires; 0 fires at once. */
  pending_seconds: pendingSeconds,
  no_data: z.enum(ALERT_NO_DATA),
  /** While firing, notify again this often; 0 never. */
  renotify_minutes: renotifyMinutes,
  notify_on_resolve: z.boolean(),
  contact_point_ids: z
    .array(idSchema)
    .max(ALERT_LIMITS.contactPointsPerRule, ALERT_MESSAGES.contactPointsMax)
    .transform((ids) => [...new Set(ids)]),
  enabled: z.boolean(),
};
export type AlertRuleField = keyof typeof alertRuleFields;
export const ALERT_RULE_FIELDS = Object.keys(alertRuleFields) as AlertRuleField[];

export const ALERT_RULE_DEFAULTS = {
  severity: 'warning',
  pending_seconds: 0,
  no_data: 'keep',
  renotify_minutes: 0,
  notify_on_resolve: true,
  contact_point_ids: [],
  enabled: true,
} as const;

export const alertRuleInputSchema = z.object({
  ...alertRuleFields,
  severity: alertRuleFields.severity.default(ALERT_RULE_DEFAULTS.severity),
  pending_seconds: pendingSeconds.default(ALERT_RULE_DEFAULTS.pending_seconds),
  no_data: alertRuleFields.no_data.default(ALERT_RULE_DEFAULTS.no_data),
  renotify_minutes: renotifyMinutes.default(ALERT_RULE_DEFAULTS.renotify_minutes),
  notify_on_resolve: z.boolean().default(ALERT_RULE_DEFAULTS.notify_on_resolve),
  contact_point_ids: alertRuleFields.contact_point_ids.default([]),
  enabled: z.boolean().default(ALERT_RULE_DEFAULTS.enabled),
});
export type AlertRuleInput = z.input<typeof alertRuleInputSchema>;
export type AlertRuleValues = z.output<typeof alertRuleInputSchema>;

/** PUT: fields left out keep their values. */
export const alertRuleUpdateSchema = z.object(alertRuleFields).partial();
export type AlertRuleUpdate = z.output<typeof alertRuleUpdateSchema>;

export const alertRuleSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    condition: alertConditionAnswerSchema,
    severity: z.enum(ALERT_SEVERITIES),
    pending_seconds: z.number().int(),
    no_data: z.enum(ALERT_NO_DATA),
    renotify_minutes: z.number().int(),
    notify_on_resolve: z.boolean(),
    contact_point_ids: z.array(z.number().int()),
    enabled: z.boolean(),
    /** The state after the latest evaluation (`ok` before the first: see `last_evaluated_at`). */
    state: z.enum(ALERT_STATES),
    /** When the rule entered its state. */
    state_since: z.string().nullable(),
    /** The latest evaluation; null before the first. */
    last_evaluation: alertEvaluationSchema.nullable(),
    /** When the rule was last evaluated; null while it never was, which an `ok` state alone cannot tell. */
    last_evaluated_at: z.string().nullable(),
    /** True while a silence covers the rule. */
    silenced: z.boolean(),
    created_at: z.string(),
    updated_at: z.string(),
    updated_by: z.string().nullable(),
  })
  .meta({ id: 'AlertRule' });
export type AlertRule = z.infer<typeof alertRuleSchema>;

export const alertRuleListResponseSchema = z.object({ rules: z.array(alertRuleSchema) });
export type AlertRuleListResponse = z.infer<typeof alertRuleListResponseSchema>;

/** "What would this evaluate to now": the editor's live line. */
export const alertPreviewRequestSchema = z.object({ condition: alertConditionSchema });
export type AlertPreviewRequest = z.input<typeof alertPreviewRequestSchema>;

/** Firing and pending rules, for the Overview banner. */
export const alertSummarySchema = z
  .object({
    firing: z.number().int(),
    pending: z.number().int(),
    /** The firing rules, critical first, then the longest firing. */
    firing_rules: z.array(
      z.object({
        id: z.number().int(),
        name: z.string(),
        severity: z.enum(ALERT_SEVERITIES),
        since: z.string().nullable(),
        summary: z.string().nullable(),
        /** True while a silence covers the rule: it fires but notifies nobody. */
        silenced: z.boolean(),
      }),
    ),
  })
  .meta({ id: 'AlertSummary' });
export type AlertSummary = z.infer<typeof alertSummarySchema>;

// Contact points

export const CONTACT_POINT_TYPES = ['telegram', 'webhook'] as const;
export type ContactPointType = (typeof CONTACT_POINT_TYPES)[number];

/** The name of the template a Telegram contact point uses unless it names another. */
export const DEFAULT_ALERT_TEMPLATE_NAME = 'alert';

const webhookUrl = requiredString(ALERT_MESSAGES.urlRequired)
  .max(ALERT_LIMITS.urlMax, ALERT_MESSAGES.url)
  // A scheme, a host (a name, an IPv4 address or a bracketed IPv6 one), then an optional port and path.
  .regex(/^https?:\/\/(\[[0-9a-fA-F:.]+\]|[^\s/?#:@[\]]+)(:\d{1,5})?([/?#]\S*)?$/i, ALERT_MESSAGES.url);

const contactPointName = visibleName(
  requiredString(ALERT_MESSAGES.contactPointNameRequired).max(ALERT_LIMITS.nameMax, ALERT_MESSAGES.nameMax),
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

// Silences

export const SILENCE_KINDS = ['once', 'recurring'] as const;
export type SilenceKind = (typeof SILENCE_KINDS)[number];

const silenceTime = z
  .string({ error: ALERT_MESSAGES.time })
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, ALERT_MESSAGES.time);
const silenceTimezone = z
  .string({ error: ALERT_MESSAGES.timezone })
  .trim()
  .min(1, ALERT_MESSAGES.timezone)
  .max(100, ALERT_MESSAGES.timezone)
  .refine(isTimeZone, ALERT_MESSAGES.timezone);
const isoTime = z.iso.datetime({ offset: true, error: ALERT_MESSAGES.endsAt });

/** What a silence mutes: one rule, every rule of a severity, or (neither) every rule. */
const silenceScope = {
  rule_id: idSchema.nullish().transform((v) => v ?? null),
  severity: z
    .enum(ALERT_SEVERITIES)
    .nullish()
    .transform((v) => v ?? null),
  comment: requiredString(ALERT_MESSAGES.commentRequired).max(
    ALERT_LIMITS.commentMax,
    ALERT_MESSAGES.commentMax,
  ),
};

function oneScope(value: { rule_id: number | null; severity: string | null }, ctx: z.RefinementCtx) {
  if (value.rule_id !== null && value.severity !== null) {
    ctx.addIssue({ code: 'custom', path: ['severity'], message: ALERT_MESSAGES.silenceScope });
  }
}

/** From `starts_at` (now when left out) until `ends_at`. */
const onceSilence = z.object({
  kind: z.literal('once'),
  ...silenceScope,
  starts_at: isoTime.nullish().transform((v) => v ?? null),
  ends_at: isoTime,
});

/** A maintenance window: on each of `weekdays` from `start_time` for `duration_minutes`, in `timezone`. */
const recurringSilence = z.object({
  kind: z.literal('recurring'),
  ...silenceScope,
  weekdays: z
    .array(z.enum(WEEKDAYS))
    .min(1, ALERT_MESSAGES.weekdays)
    .transform((days) => WEEKDAYS.filter((day) => days.includes(day))),
  start_time: silenceTime,
  duration_minutes: z
    .number({ error: ALERT_MESSAGES.durationMinutes })
    .int(ALERT_MESSAGES.durationMinutes)
    .min(1, ALERT_MESSAGES.durationMinutes)
    .max(ALERT_LIMITS.silenceDurationMinutesMax, ALERT_MESSAGES.durationMinutes),
  timezone: silenceTimezone.default('UTC'),
});

const silenceKindError = { error: 'Choose a kind: once or recurring' };

/** What a PUT may give as a once silence's end to end it at the server's time ("End now"). */
export const SILENCE_END_NOW = 'now';

type CheckedSilence = { rule_id: number | null; severity: string | null } & (
  { kind: 'once'; starts_at: string | null; ends_at: string } | { kind: 'recurring' }
);

function checkSilence(value: CheckedSilence, ctx: z.RefinementCtx) {
  oneScope(value, ctx);
  if (
    value.kind === 'once' &&
    value.starts_at !== null &&
    value.ends_at !== SILENCE_END_NOW &&
    Date.parse(value.ends_at) <= Date.parse(value.starts_at)
  ) {
    ctx.addIssue({ code: 'custom', path: ['ends_at'], message: ALERT_MESSAGES.endsAfterStart });
  }
}

export const silenceInputSchema = z
  .discriminatedUnion('kind', [onceSilence, recurringSilence], silenceKindError)
  .superRefine(checkSilence);
export type SilenceInput = z.input<typeof silenceInputSchema>;
export type SilenceValues = z.output<typeof silenceInputSchema>;

/**
 * PUT: a silence is replaced as a whole (its kind may change). A once silence's `ends_at` may also be
 * `now`, which ends an active silence at the server's time and keeps it, expired, in the list.
 */
export const silenceUpdateSchema = z
  .discriminatedUnion(
    'kind',
    [
      onceSilence.extend({
        ends_at: z.union([z.literal(SILENCE_END_NOW), isoTime], { error: ALERT_MESSAGES.endsAt }),
      }),
      recurringSilence,
    ],
    silenceKindError,
  )
  .superRefine(checkSilence);
export type SilenceUpdate = z.input<typeof silenceUpdateSchema>;
export type SilenceUpdateValues = z.output<typeof silenceUpdateSchema>;

/**
 * Whether a once silence ends at or before `now`: it would mute nothing, so the server refuses it by its
 * own clock (ALERT_MESSAGES.endsPassed on `ends_at`) and the form checks it first by the browser's.
 */
export function silenceEndHasPassed(
  silence: { kind: string; ends_at?: string | null },
  now: number,
): boolean {
  return (
    silence.kind === 'once' &&
    typeof silence.ends_at === 'string' &&
    silence.ends_at !== SILENCE_END_NOW &&
    Date.parse(silence.ends_at) <= now
  );
}

export const silenceSchema = z
  .object({
    id: z.number().int(),
    kind: z.enum(SILENCE_KINDS),
    rule_id: z.number().int().nullable(),
    rule_name: z.string().nullable(),
    severity: z.enum(ALERT_SEVERITIES).nullable(),
    comment: z.string(),
    starts_at: z.string().nullable(),
    ends_at: z.string().nullable(),
    weekdays: z.array(z.enum(WEEKDAYS)).nullable(),
    start_time: z.string().nullable(),
    duration_minutes: z.number().int().nullable(),
    timezone: z.string().nullable(),
    /** `active` now, `scheduled` (a later start or window), or `expired` (a once silence past its end). */
    status: z.enum(['active', 'scheduled', 'expired']),
    /** The end of the current window, or the start of the next one. */
    next_change_at: z.string().nullable(),
    created_at: z.string(),
    created_by: z.string().nullable(),
  })
  .meta({ id: 'AlertSilence' });
export type Silence = z.infer<typeof silenceSchema>;

export const silenceListResponseSchema = z.object({ silences: z.array(silenceSchema) });
export type SilenceListResponse = z.infer<typeof silenceListResponseSchema>;

// History

export const alertHistoryEntrySchema = z
  .object({
    id: z.number().int(),
    rule_id: z.number().int(),
    rule_name: z.string(),
    severity: z.enum(ALERT_SEVERITIES),
    from_state: z.enum(ALERT_STATES),
    to_state: z.enum(ALERT_STATES),
    /** The evaluation that caused the change. */
    value: z.number().nullable(),
    threshold: z.number().nullable(),
    summary: z.string(),
    /** True when a silence kept the change from notifying. */
    silenced: z.boolean(),
    at: z.string(),
  })
  .meta({ id: 'AlertHistoryEntry' });
export type AlertHistoryEntry = z.infer<typeof alertHistoryEntrySchema>;

export const alertHistoryQuerySchema = z.object({
  rule_id: idText.optional(),
  state: z.enum(ALERT_STATES).optional(),
  severity: z.enum(ALERT_SEVERITIES).optional(),
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
  cursor: idText.optional(),
  limit: wholeNumberText()
    .pipe(z.number().int().min(1).max(ALERT_LIMITS.historyMax))
    .default(ALERT_LIMITS.historyDefault),
});
export type AlertHistoryQuery = z.input<typeof alertHistoryQuerySchema>;

export const alertHistoryResponseSchema = z.object({
  entries: z.array(alertHistoryEntrySchema),
  /** Pass as `cursor` for the next (older) page; null when there is none. */
  next_cursor: z.number().int().nullable(),
});
export type AlertHistoryResponse = z.infer<typeof alertHistoryResponseSchema>;

export const alertNotificationListQuerySchema = z.object({
  cursor: idText.optional(),
  limit: wholeNumberText()
    .pipe(z.number().int().min(1).max(ALERT_LIMITS.notificationsMax))
    .default(ALERT_LIMITS.notificationsDefault),
});
