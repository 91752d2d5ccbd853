import { z } from 'zod';
import { label } from './fields.js';

/** Token budgets and model prices (docs/operators/metrics.md, "Token budgets and model prices"). */

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

/**
 * Where a model's price comes from (docs/operators/metrics.md, "Token budgets and model prices"): an
 * operator's, which wins; else the built-in catalogue's; 'none' for a model seen in calls with neither.
 */
export const MODEL_PRICE_SOURCES = ['operator', 'catalogue', 'none'] as const;
export type ModelPriceSource = (typeof MODEL_PRICE_SOURCES)[number];

export const modelPriceSchema = modelPriceInputSchema
  .extend({
    model: z.string(),
    source: z.enum(MODEL_PRICE_SOURCES),
    /** The catalogue and its version ("genai-prices 0.1.8") and the catalogue's name for the model. */
    catalogue: z.object({ name: z.string(), model: z.string() }).nullable(),
    /** Price per million input tokens read from the prompt cache, where the catalogue knows one. */
    cache_read_usd_per_million: z.number().nullable(),
    /** Calls under this model name in the last 30 days that Lumi could not price. */
    unpriced_requests: z.number(),
    /** Set for an operator's price; null for the catalogue's. */
    updated_at: z.string().nullable(),
    updated_by: z.string().nullable(),
  })
  .meta({ id: 'ModelPrice' });
export type ModelPrice = z.infer<typeof modelPriceSchema>;
