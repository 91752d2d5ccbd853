import { z } from 'zod';
import { wholeNumberText } from './fields.js';

/**
 * Who and what spends (docs/operators/metrics.md, "Usage by feature, chat and user"): LLM usage by feature,
 * by chat and by user, and errors by provider, model and error type, read from their rollups only. A range is
 * `from` and `to` (ISO 8601, `to` exclusive); the hourly answers cover the whole UTC hours it touches, the
 * daily ones (chats, users) the whole UTC days it touches, and every answer names what it covered.
 */

/**
 * The longest range one request may read: the console's longest view (90 days) and a little more. Each day
 * read costs time on the server, so a request's work stays bounded; the rollups themselves are kept 400 days.
 */
export const LLM_RANGE_MAX_DAYS = 92;
/** Without `from`, a range is the last 24 hours: the current UTC hour and the 23 before it. */
export const LLM_RANGE_DEFAULT_HOURS = 24;
/** Days keep the top chats (users) by cost, the rest summed in one row per day (docs/operators/metrics.md). */
export const LLM_TOP_PER_DAY = 1000;
export const LLM_TOP_LIMIT_DEFAULT = 10;

export const LLM_RANGE_MESSAGES = {
  order: 'from must be before to',
  tooLong: `A range spans at most ${LLM_RANGE_MAX_DAYS} days`,
} as const;

const instant = z.iso.datetime({ offset: true, error: 'Must be an ISO 8601 time with Z or an offset' });

export const llmRangeQuerySchema = z.object({
  from: instant.optional(),
  to: instant.optional(),
});
export type LlmRangeQuery = z.infer<typeof llmRangeQuerySchema>;

export const llmTopQuerySchema = llmRangeQuerySchema.extend({
  limit: wholeNumberText().pipe(z.number().int().min(1).max(LLM_TOP_PER_DAY)).default(LLM_TOP_LIMIT_DEFAULT),
});
export type LlmTopQuery = z.infer<typeof llmTopQuerySchema>;

/** The whole hours an hourly answer covers: [from, to). */
const hourRange = { from: z.string(), to: z.string() };
/** The UTC days a daily answer covers, both included (`YYYY-MM-DD`). */
const dayRange = { from_day: z.string(), to_day: z.string() };

const usage = {
  requests: z.number(),
  failed_requests: z.number(),
  input_tokens: z.number(),
  output_tokens: z.number(),
  cost_usd: z.number(),
};

export const llmFeatureUsageSchema = z
  .object({
    ...hourRange,
    /** By cost, highest first. `feature` is null for calls reported without one. */
    features: z.array(
      z.object({
        feature: z.string().nullable(),
        ...usage,
        /** The feature's usage per provider and model, by cost, highest first. */
        models: z.array(z.object({ provider: z.string(), model: z.string(), ...usage })),
      }),
    ),
  })
  .meta({ id: 'LlmFeatureUsage' });
export type LlmFeatureUsage = z.infer<typeof llmFeatureUsageSchema>;

const spend = { requests: z.number(), tokens: z.number(), cost_usd: z.number() };

/** `other`: every chat (user) not listed, beyond `limit` or folded into a day's other row; `total` adds all. */
export const llmTopChatsSchema = z
  .object({
    ...dayRange,
    chats: z.array(z.object({ chat_id: z.string(), ...spend })),
    other: z.object(spend),
    total: z.object(spend),
  })
  .meta({ id: 'LlmTopChats' });
export type LlmTopChats = z.infer<typeof llmTopChatsSchema>;

export const llmTopUsersSchema = z
  .object({
    ...dayRange,
    users: z.array(z.object({ user_id: z.string(), ...spend })),
    other: z.object(spend),
    total: z.object(spend),
  })
  .meta({ id: 'LlmTopUsers' });
export type LlmTopUsers = z.infer<typeof llmTopUsersSchema>;

/** A failed call reported without `error_type` counts under this one. */
export const LLM_UNKNOWN_ERROR_TYPE = 'unknown';

export const llmErrorsSchema = z
  .object({
    ...hourRange,
    /** Per provider and model with calls in the range; `error_rate` is failed / requests in percent. */
    models: z.array(
      z.object({
        provider: z.string(),
        model: z.string(),
        requests: z.number(),
        failed_requests: z.number(),
        error_rate: z.number(),
      }),
    ),
    /**
     * Failed calls by error type, most first; `error_rate` is those failures per call of the range (every
     * provider and model), in percent.
     */
    error_types: z.array(z.object({ error_type: z.string(), errors: z.number(), error_rate: z.number() })),
    /** Failed calls by provider, model and error type, most first. */
    breakdown: z.array(
      z.object({ provider: z.string(), model: z.string(), error_type: z.string(), errors: z.number() }),
    ),
  })
  .meta({ id: 'LlmErrors' });
export type LlmErrors = z.infer<typeof llmErrorsSchema>;
