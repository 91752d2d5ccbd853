import { z } from 'zod';
import { wholeNumberText } from '../fields.js';
import { activeLockSchema, INGEST_LIMITS, INTEGRATION_STATUSES } from './events.js';

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
     * Calls of the window Lumi could not price: no cost from the bot, no operator price and none in the
     * catalogue, or no token usage. Their cost counts as 0 in every figure, so the console flags them.
     */
    unpriced_requests: z.number(),
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
