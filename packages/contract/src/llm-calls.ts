import { z } from 'zod';
import { wholeNumberText } from './fields.js';
import { LLM_CONTENT_STATES } from './llm-content.js';
import { llmRangeQuerySchema } from './llm-dimensions.js';
import { TELEGRAM_ID_PATTERN } from './telemetry/events.js';

/**
 * The calls behind the figures (docs/operators/metrics.md, "Calls"): each stored LLM call, newest first,
 * filtered by what the panels group by. The range is the panels' (`from`, `to`; the last 24 hours by
 * default; at most LLM_RANGE_MAX_DAYS) and is exact to the millisecond, not widened to whole hours.
 */
export const LLM_CALLS_LIMITS = {
  pageDefault: 50,
  pageMax: 200,
  /** `total` counts at most this many matching calls; past it, `total_is_lower_bound` is true. */
  countMax: 10_000,
  /** A CSV export holds at most this many calls, the newest. */
  exportMax: 100_000,
  /**
   * Filters without an index of their own (all but a chat, a user and the failures) are applied to at most
   * this many calls of the range per page, newest first, and counted among at most countScanMax: a filter few
   * calls match costs a bounded read. Such a page may hold fewer calls and still have a next_cursor.
   */
  scanMax: 10_000,
  countScanMax: 20_000,
} as const;

/**
 * What a listed call was made for and what it used, in the order the list and the export show it: the
 * fields the Calls list reads of each call (apps/server's llm-calls.repository.ts) and the export writes.
 */
export const LLM_CALL_USAGE_FIELDS = [
  'provider',
  'model',
  'feature',
  'chat_id',
  'user_id',
  'input_tokens',
  'output_tokens',
  'usage_known',
  'cost_usd',
] as const;

/** The columns of the calls' CSV export, in order. */
export const LLM_CALLS_EXPORT_COLUMNS = [
  'time',
  ...LLM_CALL_USAGE_FIELDS,
  'cost_source',
  'latency_ms',
  'success',
  'error_type',
  'call_id',
] as const;

const text = (max: number) => z.string().trim().min(1).max(max);
const telegramId = z.string().regex(TELEGRAM_ID_PATTERN, 'Must be a Telegram id such as -1001234567890');
const decimal = z
  .string()
  .regex(/^\d+(\.\d+)?$/, 'Must be a number such as 0.05')
  .transform(Number);

export const llmCallsQuerySchema = llmRangeQuerySchema.extend({
  provider: text(100).optional(),
  model: text(200).optional(),
  feature: text(64).optional(),
  /** Only calls reported without a feature (the feature panel's "No feature" row). */
  no_feature: z.enum(['true'], { error: 'no_feature must be true' }).optional(),
  chat_id: telegramId.optional(),
  user_id: telegramId.optional(),
  /** A failure's type; LLM_UNKNOWN_ERROR_TYPE for failures reported without one (as the errors panel names them). */
  error_type: text(100).optional(),
  failed: z.enum(['true', 'false'], { error: 'failed must be true or false' }).optional(),
  min_latency_ms: wholeNumberText().pipe(z.number().int().min(0).max(86_400_000)).optional(),
  min_cost_usd: decimal.pipe(z.number().min(0).max(1_000_000)).optional(),
  /** The `next_cursor` of the previous page. */
  cursor: z.string().max(200).optional(),
  limit: wholeNumberText()
    .pipe(z.number().int().min(1).max(LLM_CALLS_LIMITS.pageMax))
    .default(LLM_CALLS_LIMITS.pageDefault),
});
export type LlmCallsQuery = z.input<typeof llmCallsQuerySchema>;
export type LlmCallsFilters = Omit<z.output<typeof llmCallsQuerySchema>, 'cursor' | 'limit'>;

/** The export takes the list's range and filters; it reads every page itself. */
export const llmCallsExportQuerySchema = llmCallsQuerySchema.omit({ cursor: true, limit: true });

/** Where a call's cost comes from: the bot's cost_usd, Lumi's price, or none (an unpriced call costs 0). */
export const LLM_COST_SOURCES = ['bot', 'priced', 'unpriced'] as const;

export const llmCallSchema = z
  .object({
    /** The stored call's id, for its own page. */
    id: z.string(),
    ts: z.string(),
    provider: z.string(),
    model: z.string(),
    feature: z.string().nullable(),
    chat_id: z.string().nullable(),
    user_id: z.string().nullable(),
    input_tokens: z.number(),
    output_tokens: z.number(),
    /** false when the bot could not tell the call's token usage (its tokens then read 0). */
    usage_known: z.boolean(),
    cost_usd: z.number(),
    cost_source: z.enum(LLM_COST_SOURCES),
    latency_ms: z.number(),
    cached: z.boolean(),
    success: z.boolean(),
    /** A failure's type; null for a success, "unknown" for a failure reported without one. */
    error_type: z.string().nullable(),
  })
  .meta({ id: 'LlmCall' });
export type LlmCall = z.infer<typeof llmCallSchema>;

export const llmCallsSchema = z
  .object({
    calls: z.array(llmCallSchema),
    /** Pass as `cursor` for the next (older) page; null on the last page. */
    next_cursor: z.string().nullable(),
    /**
     * The matching calls in the range, counted up to LLM_CALLS_LIMITS.countMax (and, for filters without an
     * index, among the newest countScanMax calls); `total_is_lower_bound` when there may be more.
     */
    total: z.number(),
    total_is_lower_bound: z.boolean(),
    /**
     * Set when this page stopped at LLM_CALLS_LIMITS.scanMax before it was full: the time it searched back
     * to; next_cursor searches on from there. Null otherwise.
     */
    searched_to: z.string().nullable(),
    /** The range read: [from, to). */
    from: z.string(),
    to: z.string(),
  })
  .meta({ id: 'LlmCalls' });
export type LlmCalls = z.infer<typeof llmCallsSchema>;

export const llmCallDetailSchema = llmCallSchema
  .extend({
    /** The bot's own id for the event (`otlp:<trace id>:<span id>` for a span); null when it sent none. */
    client_id: z.string().nullable(),
    /** The OpenTelemetry trace and span of a call reported as a span (hex); null otherwise. */
    trace_id: z.string().nullable(),
    span_id: z.string().nullable(),
    /** The model that answered, when it named itself more exactly than `model` (a dated name). */
    response_model: z.string().nullable(),
    /** The API key that reported the call; null for calls stored before keys were recorded, or Lumi's own. */
    api_key: z.object({ id: z.number(), name: z.string() }).nullable(),
    /**
     * Whether its prompt and completion can be read (GET …/calls/{id}/content, `llm:content:read`): kept,
     * removed after LUMI_CONTENT_RETENTION_DAYS, or never kept (its key does not capture content).
     */
    content: z.enum(LLM_CONTENT_STATES),
  })
  .meta({ id: 'LlmCallDetail' });
export type LlmCallDetail = z.infer<typeof llmCallDetailSchema>;

export const llmCallParamsSchema = z.object({
  id: z.string().regex(/^\d{1,19}$/, 'Must be a call id: a whole number'),
});
