import { z } from 'zod';
import { label, timestamp } from './fields.js';
import { visibleName } from '../fields.js';
import { llmContentEventFields } from '../llm-content.js';
import { groupedNumber } from '../text.js';

/**
 * What the bot reports (docs/bot-developers/ingestion.md, "Reporting events"):
 * `POST /api/ingest/events {events: [...]}` with an API key holding the `ingest:write` scope. Each event is
 * validated on its own; fields not listed here are ignored, so an older server accepts a newer bot's events.
 */
export const INGEST_LIMITS = {
  maxEvents: 1000,
  maxBodyBytes: 1024 * 1024,
  maxIdLength: 200,
  /** An event may be this far ahead of the server's clock (clock skew), no further. */
  futureSkewSeconds: 300,
  /** Rollups are kept this long, so older events could not be counted anywhere. */
  rollupRetentionDays: 400,
} as const;

export const TELEMETRY_EVENT_TYPES = [
  'llm_call',
  'integration_call',
  'cache_stats',
  'heartbeat',
  'error',
  'market_data',
  'feedback',
] as const;
export type TelemetryEventType = (typeof TELEMETRY_EVENT_TYPES)[number];

export const INTEGRATION_STATUSES = ['success', 'error', 'other'] as const;
export type IntegrationStatus = (typeof INTEGRATION_STATUSES)[number];

/** Per event; sums are kept in 64-bit columns. */
const count = (max: number) => z.number().int().min(0).max(max);
const milliseconds = z
  .number()
  .min(0)
  .max(24 * 3600 * 1000);

/**
 * The dimensions an llm_call may carry (docs/bot-developers/ingestion.md,
 * "Who and what an LLM call was for").
 */
export const LLM_DIMENSION_LIMITS = { featureMax: 64, errorTypeMax: 100 } as const;

/**
 * A Telegram chat or user id as a string (JSON numbers lose digits past 2^53): a whole number in its
 * canonical form, no leading zeros or plus sign, so one chat is always one key in the rollups.
 */
export const TELEGRAM_ID_PATTERN = /^(0|-?[1-9]\d{0,19})$/;
export const telegramIdSchema = z
  .string({ error: 'Must be a Telegram id sent as a string, such as "-1001234567890"' })
  .regex(
    TELEGRAM_ID_PATTERN,
    'Must be a Telegram id: digits with an optional minus, such as "-1001234567890"',
  );
/** An optional name people read on a dashboard: printable, not blank (leave the field out instead). */
const dimension = (max: number) =>
  visibleName(
    z
      .string()
      .trim()
      .min(1, 'Must not be blank; leave the field out instead')
      .max(max, `Must be at most ${max} characters`),
  );

/** A feature's name, as an llm_call reports it. */
export const featureNameSchema = dimension(LLM_DIMENSION_LIMITS.featureMax);

const common = {
  /** The bot's own id for the event: a retried event with the same type and id is stored once. */
  id: z.string().min(1).max(INGEST_LIMITS.maxIdLength).optional(),
  ts: timestamp,
};

export const llmCallEventSchema = z.object({
  type: z.literal('llm_call'),
  ...common,
  provider: label('Provider', 100),
  model: label('Model', 200),
  input_tokens: count(100_000_000),
  output_tokens: count(100_000_000),
  /** When absent, computed from the model price table (0 when the model has no price). */
  cost_usd: z.number().min(0).max(1_000_000).optional(),
  latency_ms: milliseconds,
  cached: z.boolean(),
  success: z.boolean(),
  chat_id: telegramIdSchema.optional(),
  user_id: telegramIdSchema.optional(),
  /** The bot's name for the kind of work: "reply", "digest", "summarize" … */
  feature: dimension(LLM_DIMENSION_LIMITS.featureMax).optional(),
  /** Why a failed call failed, in the bot's words ("timeout", "rate_limited" …); counted for failed calls. */
  error_type: dimension(LLM_DIMENSION_LIMITS.errorTypeMax).optional(),
  /**
   * The model the provider answered with when it names it more exactly than `model` (a dated name such as
   * "gpt-4o-mini-2024-07-18"): prices are looked up by it first, the dashboards count under `model`.
   */
  response_model: label('Response model', 200).optional(),
  /** Of input_tokens, those read from the provider's prompt cache and those written to it (priced apart). */
  cache_read_tokens: count(100_000_000).optional(),
  cache_write_tokens: count(100_000_000).optional(),
  /**
   * false when the bot could not tell the call's token usage: the call counts, its tokens count as 0 and it
   * is one of the calls Lumi cannot price (docs/bot-developers/ingestion.md, "Prices").
   */
  usage_known: z.boolean().optional(),
  ...llmContentEventFields,
});

export const integrationCallEventSchema = z.object({
  type: z.literal('integration_call'),
  ...common,
  service_name: label('Service name', 100),
  status: z.enum(INTEGRATION_STATUSES),
  latency_ms: milliseconds,
  error: z.string().max(2000).optional(),
});

/** hits and misses count since the previous report, so reports add up. */
export const cacheStatsEventSchema = z.object({
  type: z.literal('cache_stats'),
  ...common,
  hits: count(1_000_000_000),
  misses: count(1_000_000_000),
  entries: count(1_000_000_000),
  avg_response_time_cached_ms: milliseconds,
  avg_response_time_uncached_ms: milliseconds,
});

export const activeLockSchema = z.object({
  name: label('Lock name', 200),
  holder: label('Lock holder', 200),
  since: timestamp,
});
export type ActiveLock = z.infer<typeof activeLockSchema>;

export const heartbeatEventSchema = z.object({
  type: z.literal('heartbeat'),
  ...common,
  telegram_status: label('Telegram status', 50),
  started_at: timestamp,
  active_locks: z.array(activeLockSchema).max(100),
});

export const errorEventSchema = z.object({
  type: z.literal('error'),
  ...common,
  source: label('Source', 100),
  message: z.string().max(4000),
});

export const marketDataEventSchema = z.object({
  type: z.literal('market_data'),
  ...common,
  last_candle_time: timestamp,
  websocket_status: label('WebSocket status', 50),
  /** How many candle intervals the feed is missing. */
  missing_intervals: count(1_000_000),
});

/**
 * A user's reaction to, or score of, a message the bot sent (docs/bot-developers/ingestion.md, "Feedback"):
 * counted per template, feature and configuration revision, the groundwork for quality by revision.
 */
export const FEEDBACK_LIMITS = { reactionMax: 32, revisionMax: 64, scoreMin: -1, scoreMax: 5 } as const;

export const feedbackEventSchema = z
  .object({
    type: z.literal('feedback'),
    ...common,
    chat_id: telegramIdSchema,
    /** The Telegram message the feedback is about. */
    message_id: z
      .number()
      .int()
      .positive()
      .max(2 ** 53),
    user_id: telegramIdSchema.optional(),
    /** An emoji or a custom emoji's id, as Telegram's message_reaction update gives it. */
    reaction: dimension(FEEDBACK_LIMITS.reactionMax).optional(),
    /** The bot's own scale: thumbs down -1, up 1, or 1 to 5 stars. */
    score: z.number().min(FEEDBACK_LIMITS.scoreMin).max(FEEDBACK_LIMITS.scoreMax).optional(),
    template: dimension(200).optional(),
    feature: dimension(LLM_DIMENSION_LIMITS.featureMax).optional(),
    config_revision: dimension(FEEDBACK_LIMITS.revisionMax).optional(),
  })
  .refine((e) => e.reaction !== undefined || e.score !== undefined, {
    message: 'Give a reaction, a score or both',
    path: ['reaction'],
  });

export const telemetryEventSchema = z.discriminatedUnion('type', [
  llmCallEventSchema,
  integrationCallEventSchema,
  cacheStatsEventSchema,
  heartbeatEventSchema,
  errorEventSchema,
  marketDataEventSchema,
  feedbackEventSchema,
]);
export type TelemetryEvent = z.infer<typeof telemetryEventSchema>;
export type LlmCallEvent = z.infer<typeof llmCallEventSchema>;

export const ingestRequestSchema = z.object({
  events: z
    .array(z.unknown(), { error: 'Send the events as an array: {"events": [...]}' })
    .max(INGEST_LIMITS.maxEvents, `At most ${groupedNumber(INGEST_LIMITS.maxEvents)} events per batch`)
    .describe(
      `Each event is one of the types ${TELEMETRY_EVENT_TYPES.join(', ')}; invalid ones are rejected alone`,
    ),
});

export const budgetStatusSchema = z.object({
  provider: z.string(),
  usage_percentage: z.number(),
  /** True when today's usage has reached the limit: the bot should stop calling this provider. */
  exceeded: z.boolean(),
});
export type BudgetStatus = z.infer<typeof budgetStatusSchema>;

export const ingestResponseSchema = z
  .object({
    /** Events stored by this request. accepted + duplicates + rejected.length = events sent. */
    accepted: z.number().int(),
    /** Events whose type and id were stored before (or earlier in the same batch): not stored again. */
    duplicates: z.number().int(),
    rejected: z.array(z.object({ index: z.number().int(), detail: z.string() })),
    /** Every active token budget, including this batch's usage. */
    budgets: z.array(budgetStatusSchema),
  })
  .meta({ id: 'IngestResult' });
export type IngestResult = z.infer<typeof ingestResponseSchema>;
