import { modelPriceInputSchema, tokenBudgetInputSchema } from '@lumi/contract';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { numberFieldMessage, toNumberOrNull } from './number-form';

describe('toNumberOrNull', () => {
  it.each([
    { value: '', expected: null },
    { value: null, expected: null },
    { value: '12', expected: 12 },
    { value: '0.5', expected: 0.5 },
  ])('$value is $expected', ({ value, expected }) => {
    expect(toNumberOrNull(value)).toBe(expected);
  });
});

function firstMessage(schema: z.ZodType, value: unknown) {
  const result = schema.safeParse(value, { error: numberFieldMessage });
  return result.success ? null : result.error.issues[0]?.message;
}

describe('numberFieldMessage', () => {
  it.each([
    { name: 'no limit at all', value: {}, expected: 'Set a daily token limit, a daily cost limit or both' },
    { name: 'a fractional token limit', value: { daily_token_limit: 1.5 }, expected: 'Enter a whole number' },
    { name: 'a zero token limit', value: { daily_token_limit: 0 }, expected: 'Must be more than 0' },
    { name: 'a negative cost limit', value: { daily_cost_limit: -1 }, expected: 'Must be more than 0' },
    { name: 'a valid budget', value: { daily_token_limit: 1000 }, expected: null },
  ])('budget with $name: $expected', ({ value, expected }) => {
    expect(firstMessage(tokenBudgetInputSchema, value)).toBe(expected);
  });

  it.each([
    { name: 'a missing price', value: { output_usd_per_million: 1 }, expected: 'Enter a number' },
    {
      name: 'a negative price',
      value: { input_usd_per_million: -1, output_usd_per_million: 1 },
      expected: 'Must be at least 0',
    },
    {
      name: 'a huge price',
      value: { input_usd_per_million: 2_000_000, output_usd_per_million: 1 },
      expected: `Must be at most ${(1_000_000).toLocaleString()}`,
    },
  ])('price with $name: $expected', ({ value, expected }) => {
    expect(firstMessage(modelPriceInputSchema, value)).toBe(expected);
  });
});
