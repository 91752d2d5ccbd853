import { z } from 'zod';
import { requiredString } from '../fields.js';
import { ALERT_LIMITS, ALERT_MESSAGES } from './constants.js';

/** What a rule watches: its condition, as asked and as answered, and what it came to at an evaluation (docs/bot-developers/alerts.md). */

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
    /**
     * A call reached a limit in the last `minutes` (docs/operators/limits.md): denied by a hard one or over
     * a soft one; of one limit, or of any.
     */
    z.object({
      type: z.literal('limit_reached'),
      minutes,
      limit_id: z
        .number({ error: ALERT_MESSAGES.limitId })
        .int(ALERT_MESSAGES.limitId)
        .positive(ALERT_MESSAGES.limitId)
        .nullish()
        .transform((v) => v ?? null),
    }),
    /**
     * A chat or user spent at least `usd` in the current and previous hour, and at least `factor` times its
     * own usual for two hours (its average over the 7 days before).
     */
    z.object({
      type: z.literal('spend_spike'),
      factor: z
        .number({ error: ALERT_MESSAGES.factor })
        .min(2, ALERT_MESSAGES.factor)
        .max(1000, ALERT_MESSAGES.factor),
      usd: z
        .number({ error: ALERT_MESSAGES.usd })
        .positive(ALERT_MESSAGES.usd)
        .max(ALERT_LIMITS.usdMax, ALERT_MESSAGES.usd),
    }),
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
    z.object({ type: z.literal('limit_reached'), minutes: z.number(), limit_id: z.number().nullable() }),
    z.object({ type: z.literal('spend_spike'), factor: z.number(), usd: z.number() }),
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
