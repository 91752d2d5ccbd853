/** Prices are quoted in US dollars per million tokens, as the providers publish them. */
export interface TokenPrice {
  input_usd_per_million: number;
  output_usd_per_million: number;
}

/** The cost of one call from its token counts; 0 when the model has no price. */
export function costOf(tokens: { input_tokens: number; output_tokens: number }, price?: TokenPrice): number {
  if (!price) return 0;
  return (
    (tokens.input_tokens * price.input_usd_per_million +
      tokens.output_tokens * price.output_usd_per_million) /
    1_000_000
  );
}

/** Rounds for display in answers, dropping the noise of floating-point sums (1e-6 USD is a micro-dollar). */
export function roundTo(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/**
 * A budget's share used, in percent: the larger of tokens/limit and cost/limit over the limits that are
 * set (docs/operators/metrics.md, "Token budgets and model prices"). Not capped: the console caps its bar at
 * 100 %, the number stays honest.
 */
export function budgetUsagePercentage(
  limits: { tokens: number | null; cost: number | null },
  usage: { tokens: number; cost: number },
): number {
  const shares = [0];
  if (limits.tokens) shares.push(usage.tokens / limits.tokens);
  if (limits.cost) shares.push(usage.cost / limits.cost);
  return roundTo(Math.max(...shares) * 100, 2);
}
