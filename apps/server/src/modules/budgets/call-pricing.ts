import type { Executor } from '../../db/database.js';
import { costOf, type TokenPrice } from '../../lib/llm-cost.js';
import * as repo from './budgets.repository.js';
import { catalogueCost, type CallUsage } from './price-catalogue.js';

/**
 * How an llm_call reported without a cost is priced (docs/operators/metrics.md, "Token budgets and model
 * prices"): by an operator's price for the model the provider answered with, then for the model asked for
 * (each also without a date suffix, so a price for "gpt-4o-mini" serves "gpt-4o-mini-2024-07-18"); else by
 * the built-in catalogue; else the call is unpriced and costs 0.
 */

export interface PricedCallInput extends CallUsage {
  provider: string;
  model: string;
  response_model?: string;
  cost_usd?: number;
  usage_known?: boolean;
}

export interface CallCost {
  cost_usd: number;
  /** 1 when Lumi worked the cost out (an operator's or the catalogue's price), 0 when the bot sent it. */
  cost_computed: 0 | 1;
  unpriced: 0 | 1;
}

/** A date at the end of a model name, as providers version them: -2024-07-18, -20241022 or @20241022. */
const DATE_SUFFIX = /(?:-\d{4}-\d{2}-\d{2}|[-@]\d{8})$/;

/** The names a model's operator price may stand under, most exact first. */
export function priceNames(call: Pick<PricedCallInput, 'model' | 'response_model'>): string[] {
  const exact = call.response_model ? [call.response_model, call.model] : [call.model];
  const names = [...exact, ...exact.map((name) => name.replace(DATE_SUFFIX, ''))];
  return [...new Set(names)];
}

/** Prices a batch's calls, reading the operator prices they may need in one query. */
export async function callPricer(
  db: Executor,
  calls: PricedCallInput[],
): Promise<(call: PricedCallInput) => CallCost> {
  const names = new Set(calls.filter((c) => c.cost_usd === undefined).flatMap(priceNames));
  const prices = new Map<string, TokenPrice>(
    (await repo.pricesFor(db, [...names])).map((row) => [row.model, row]),
  );
  return (call) => {
    if (call.cost_usd !== undefined) return { cost_usd: call.cost_usd, cost_computed: 0, unpriced: 0 };
    if (call.usage_known === false) return { cost_usd: 0, cost_computed: 1, unpriced: 1 };
    const operator = priceNames(call)
      .map((name) => prices.get(name))
      .find((price) => price !== undefined);
    if (operator) return { cost_usd: costOf(call, operator), cost_computed: 1, unpriced: 0 };
    const models = call.response_model ? [call.response_model, call.model] : [call.model];
    for (const model of models) {
      const cost = catalogueCost(call.provider, model, call);
      if (cost !== null) return { cost_usd: cost, cost_computed: 1, unpriced: 0 };
    }
    return { cost_usd: 0, cost_computed: 1, unpriced: 1 };
  };
}
