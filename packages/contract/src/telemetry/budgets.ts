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

export const modelPriceSchema = modelPriceInputSchema
  .extend({ model: z.string(), updated_at: z.string(), updated_by: z.string().nullable() })
  .meta({ id: 'ModelPrice' });
export type ModelPrice = z.infer<typeof modelPriceSchema>;
