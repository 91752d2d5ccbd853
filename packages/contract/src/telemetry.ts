import { z } from 'zod';
import { visibleName, wholeNumberText } from './fields.js';

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

const timestamp = z.iso.datetime({ offset: true, error: 'Must be an ISO 8601 time with Z or an offset' });
/** A name the bot reports; the message reads as every other required field's does ("Provider is required"). */
const label = (field: string, max: number) => z.string().trim().min(1, `${field} is required`).max(max);
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
const telegramId = z
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
  chat_id: telegramId.optional(),
  user_id: telegramId.optional(),
  /** The bot's name for the kind of work: "reply", "digest", "summarize" … */
  feature: dimension(LLM_DIMENSION_LIMITS.featureMax).optional(),
  /** Why a failed call failed, in the bot's words ("timeout", "rate_limited" …); counted for failed calls. */
  error_type: dimension(LLM_DIMENSION_LIMITS.errorTypeMax).optional(),
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
    chat_id: telegramId,
    /** The Telegram message the feedback is about. */
    message_id: z
      .number()
      .int()
      .positive()
      .max(2 ** 53),
    user_id: telegramId.optional(),
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

export const FEEDBACK_GROUPINGS = ['template', 'feature', 'config_revision'] as const;
export type FeedbackGrouping = (typeof FEEDBACK_GROUPINGS)[number];

export const feedbackSummaryQuerySchema = z.object({
  by: z.enum(FEEDBACK_GROUPINGS).default('template'),
  /** The last N days, up to the rollups' history (default 7). */
  days: wholeNumberText('A whole number of days')
    .pipe(z.number().int().min(1).max(INGEST_LIMITS.rollupRetentionDays))
    .default(7),
});

export const feedbackSummarySchema = z
  .object({
    by: z.enum(FEEDBACK_GROUPINGS),
    from: z.string(),
    rows: z.array(
      z.object({
        /** The template, feature or revision; null for feedback that named none. */
        key: z.string().nullable(),
        events: z.number().int(),
        /** How often each reaction was given. */
        reactions: z.record(z.string(), z.number().int()),
        scores: z.number().int(),
        score_avg: z.number().nullable(),
      }),
    ),
  })
  .meta({ id: 'FeedbackSummary' });
export type FeedbackSummary = z.infer<typeof feedbackSummarySchema>;

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
    .max(INGEST_LIMITS.maxEvents, `At most ${INGEST_LIMITS.maxEvents.toLocaleString('en')} events per batch`)
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

// Metrics (spec section 3, entities; section 7, calls). Windows are whole UTC hours: "the last 24 hours"
// is the current hour and the 23 before it.

export const botHealthSchema = z
  .object({
    /** From the latest heartbeat, or 'no_heartbeat' when there is none recent enough. */
    telegram_status: z.string(),
    uptime_seconds: z.number().int(),
    error_count_24h: z.number().int(),
    active_locks: z.array(activeLockSchema),
  })
  .meta({ id: 'BotHealth' });
export type BotHealth = z.infer<typeof botHealthSchema>;
export const NO_HEARTBEAT = 'no_heartbeat';

export const LLM_USAGE_MAX_DAYS = INGEST_LIMITS.rollupRetentionDays;
export const llmUsageQuerySchema = z.object({
  days: wholeNumberText().pipe(z.number().int().min(1).max(LLM_USAGE_MAX_DAYS)).default(30),
});
export const llmUsageSchema = z
  .object({
    /** One entry per day (in LUMI_TIMEZONE) and provider seen in the window; zeros on quiet days. */
    daily_usage: z.array(
      z.object({ date: z.string(), provider: z.string(), tokens_used: z.number(), cost: z.number() }),
    ),
    totals: z.object({ tokens: z.number(), cost: z.number(), requests: z.number() }),
    /**
     * The hours the days cover, from the first day's first hour to the end of today (ISO 8601), and the
     * time zone whose days they are: the range of the panel's export and change markers.
     */
    window: z.object({ from: z.string(), to: z.string(), timezone: z.string() }),
  })
  .meta({ id: 'LlmUsage' });
export type LlmUsage = z.infer<typeof llmUsageSchema>;

export const cacheMetricsSchema = z
  .object({
    hit_rate: z.number(),
    total_hits: z.number(),
    cache_entries: z.number(),
    avg_response_time_cached: z.number(),
    avg_response_time_uncached: z.number(),
    /** Time of the latest report in the window; null when the bot sent none (the figures are then 0). */
    last_updated: z.string().nullable(),
  })
  .meta({ id: 'CacheMetrics' });
export type CacheMetrics = z.infer<typeof cacheMetricsSchema>;

export const marketDataStatusSchema = z
  .object({
    /** 'current', a text such as 'stale (12 min behind)', or 'no data' before the first report. */
    data_freshness: z.string(),
    websocket_status: z.string(),
    last_candle_time: z.string().nullable(),
    missing_intervals: z.number().int(),
  })
  .meta({ id: 'MarketDataStatus' });
export type MarketDataStatus = z.infer<typeof marketDataStatusSchema>;
export const MARKET_DATA_NONE = 'no data';

export const GEMINI_WINDOWS = [24, 48, 168] as const;
export const geminiUsageQuerySchema = z.object({
  hours: z
    .enum(['24', '48', '168'], { error: 'hours must be 24, 48 or 168' })
    .default('24')
    .transform(Number),
});
export const geminiUsageSchema = z
  .object({
    summary: z.object({
      total_requests: z.number(),
      total_tokens: z.number(),
      total_cost: z.number(),
      models: z.record(
        z.string(),
        z.object({ requests: z.number(), estimated_tokens: z.number(), estimated_cost: z.number() }),
      ),
    }),
    /** Every hour of the window, oldest first, with zeros where nothing happened. */
    time_series: z.array(
      z.object({ timestamp: z.string(), requests: z.number(), tokens: z.number(), cost: z.number() }),
    ),
    /** Time of the latest Gemini call in the window; null when there was none. */
    last_updated: z.string().nullable(),
  })
  .meta({ id: 'GeminiUsage' });
export type GeminiUsage = z.infer<typeof geminiUsageSchema>;

export const integrationMetricsSchema = z
  .object({
    data: z.array(
      z.object({
        service_name: z.string(),
        last_api_call: z.string(),
        last_status: z.enum(INTEGRATION_STATUSES),
        total_calls: z.number().int(),
        success_count: z.number().int(),
        error_count: z.number().int(),
        /** Percentage, 0 to 100. */
        success_rate: z.number(),
      }),
    ),
  })
  .meta({ id: 'IntegrationMetrics' });
export type IntegrationMetrics = z.infer<typeof integrationMetricsSchema>;

// Token budgets and model prices.

export const BUDGET_MESSAGES = {
  limitRequired: 'Set a daily token limit, a daily cost limit or both',
} as const;

/** Path parameters: the same bounds as the provider and model of an llm_call. */
export const providerParamsSchema = z.object({ provider: label('Provider', 100) });
export const modelParamsSchema = z.object({ model: label('Model', 200) });

export const tokenBudgetInputSchema = z
  .object({
    daily_token_limit: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).nullish(),
    daily_cost_limit: z.number().positive().max(1_000_000_000).nullish(),
    is_active: z.boolean().default(true),
  })
  .refine((b) => b.daily_token_limit != null || b.daily_cost_limit != null, {
    error: BUDGET_MESSAGES.limitRequired,
    path: ['daily_token_limit'],
  });
export type TokenBudgetInput = z.input<typeof tokenBudgetInputSchema>;
export type TokenBudgetValues = z.output<typeof tokenBudgetInputSchema>;

export const tokenBudgetSchema = z
  .object({
    provider: z.string(),
    daily_token_limit: z.number().int().nullable(),
    daily_cost_limit: z.number().nullable(),
    /** Today in LUMI_TIMEZONE. usage_percentage is the larger of the two limits' shares; not capped. */
    current_usage: z.object({
      tokens_used: z.number(),
      cost_incurred: z.number(),
      usage_percentage: z.number(),
    }),
    is_active: z.boolean(),
    updated_at: z.string(),
    updated_by: z.string().nullable(),
  })
  .meta({ id: 'TokenBudget' });
export type TokenBudget = z.infer<typeof tokenBudgetSchema>;

export const modelPriceInputSchema = z.object({
  input_usd_per_million: z.number().min(0).max(1_000_000),
  output_usd_per_million: z.number().min(0).max(1_000_000),
});
export type ModelPriceInput = z.infer<typeof modelPriceInputSchema>;

export const modelPriceSchema = modelPriceInputSchema
  .extend({ model: z.string(), updated_at: z.string(), updated_by: z.string().nullable() })
  .meta({ id: 'ModelPrice' });
export type ModelPrice = z.infer<typeof modelPriceSchema>;

// Latency percentiles (docs/operators/metrics.md, "Latency percentiles"), from the hourly latency histograms.

/**
 * Longest range of a latency query (the console's longest view, 90 days, and a little more, so a request's
 * work stays bounded; the histograms are kept 400 days), and of one answered hour by hour.
 */
export const LATENCY_LIMITS = { maxDays: 92, maxHourlyDays: 7 } as const;
export const LATENCY_INTERVALS = ['hour', 'day'] as const;
export type LatencyInterval = (typeof LATENCY_INTERVALS)[number];

export const latencyQuerySchema = z.object({
  /** Start of the range; default 24 hours before `to`. Hours that overlap [from, to) count whole. */
  from: timestamp.optional(),
  /** End of the range (exclusive); default now. */
  to: timestamp.optional(),
  interval: z.enum(LATENCY_INTERVALS, { error: 'interval must be hour or day' }).default('hour'),
});
export type LatencyQuery = z.input<typeof latencyQuerySchema>;

/** Milliseconds, each within 2 % of the exact nearest-rank percentile; null where there were no calls. */
const latencyFiguresSchema = z.object({
  requests: z.number().int(),
  p50_ms: z.number().nullable(),
  p95_ms: z.number().nullable(),
  p99_ms: z.number().nullable(),
});
export type LatencyFigures = z.infer<typeof latencyFiguresSchema>;

const latencySeriesSchema = z.object({
  /** The whole range, merged from every hour's histogram. */
  total: latencyFiguresSchema,
  /** Every interval of the range, oldest first, with requests 0 and null percentiles where quiet. */
  intervals: z.array(latencyFiguresSchema.extend({ start: z.string() })),
});

/** The whole UTC hours the range touches: `to` is the end of the last. */
const latencyRangeSchema = {
  from: z.string(),
  to: z.string(),
  interval: z.enum(LATENCY_INTERVALS),
};

export const llmLatencySchema = z
  .object({
    ...latencyRangeSchema,
    models: z.array(latencySeriesSchema.extend({ provider: z.string(), model: z.string() })),
  })
  .meta({ id: 'LlmLatency' });
export type LlmLatency = z.infer<typeof llmLatencySchema>;

export const integrationLatencySchema = z
  .object({
    ...latencyRangeSchema,
    services: z.array(latencySeriesSchema.extend({ service_name: z.string() })),
  })
  .meta({ id: 'IntegrationLatency' });
export type IntegrationLatency = z.infer<typeof integrationLatencySchema>;
