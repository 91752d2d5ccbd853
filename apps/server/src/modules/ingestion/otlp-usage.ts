import type { MappedField } from './otlp-conventions.js';

/**
 * A model call's token usage as its span tells it (docs/bot-developers/otlp.md, "Which spans count"). Values
 * are kept as the span gives them: one of the wrong type is refused by the ingestion API's validation.
 */
export interface SpanUsage {
  input_tokens: unknown;
  output_tokens: unknown;
  cache_read_tokens: unknown;
  cache_write_tokens: unknown;
}

const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/**
 * The usage fields of a span. Output is total − input where only a total is given. Thinking tokens are
 * billed as output: they are added to it where the output count leaves them out, which the total shows
 * (input + output + thinking = total), or, without a total, for Google, whose candidates count leaves the
 * thoughts out (https://ai.google.dev/gemini-api/docs/thinking#pricing).
 */
export function usageOf(value: (field: MappedField) => unknown, provider: unknown): SpanUsage {
  const input = value('input_tokens');
  let output = value('output_tokens');
  const total = value('total_tokens');
  const reasoning = value('reasoning_tokens');
  if (output === undefined && isCount(total) && isCount(input)) output = Math.max(0, total - input);
  if (isCount(reasoning) && isCount(output)) {
    const leftOut =
      isCount(total) && isCount(input) ? input + output + reasoning === total : provider === 'google';
    if (leftOut) output += reasoning;
  }
  return {
    input_tokens: input,
    output_tokens: output,
    cache_read_tokens: value('cache_read_tokens'),
    cache_write_tokens: value('cache_write_tokens'),
  };
}

/**
 * Of two spans of one call (an instrumentation's and, beneath it, the client's own), the usage that counts
 * more input: some instrumentations leave the prompt cache's tokens out of their input count (OpenLLMetry
 * for Anthropic) where the client's span has them.
 */
export function fullerUsage(counted: SpanUsage, beneath: SpanUsage): SpanUsage {
  return isCount(beneath.input_tokens) &&
    (!isCount(counted.input_tokens) || beneath.input_tokens > counted.input_tokens)
    ? beneath
    : counted;
}
