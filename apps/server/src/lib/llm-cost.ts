/** Prices are quoted in US dollars per million tokens, as the providers publish them. */
export interface TokenPrice {
  input_usd_per_million: number;
  output_usd_per_million: number;
}

/** The cost of one call from its token counts; 0 when the model has no price. */
export function costOf(tokens: { input_tokens: number; output_tokens: number }, price?: TokenPrice): number {
  if (!price) return 0;
  return (
    (tokens.input_tokens * price.input_usd_per_million + tokens.output_tokens * price.output_usd_per_million) /
    1_000_000
  );
}

/** Rounds for display in answers, dropping the noise of floating-point sums (1e-6 USD is a micro-dollar). */
export function roundTo(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
