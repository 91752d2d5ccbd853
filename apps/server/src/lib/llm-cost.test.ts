import { describe, expect, it } from 'vitest';
import { budgetUsagePercentage, costOf, roundTo } from './llm-cost.js';

describe('LLM cost', () => {
  const price = { input_usd_per_million: 1.25, output_usd_per_million: 5 };

  it.each([
    [{ input_tokens: 1_000_000, output_tokens: 0 }, 1.25],
    [{ input_tokens: 0, output_tokens: 1_000_000 }, 5],
    [{ input_tokens: 1_000_000, output_tokens: 200_000 }, 2.25],
    [{ input_tokens: 1000, output_tokens: 500 }, 0.00375],
    [{ input_tokens: 0, output_tokens: 0 }, 0],
  ])('costs %j at 1.25/5 USD per million as %s USD', (tokens, usd) => {
    expect(costOf(tokens, price)).toBeCloseTo(usd, 12);
  });

  it('costs nothing without a price', () => {
    expect(costOf({ input_tokens: 1000, output_tokens: 1000 })).toBe(0);
  });

  it('rounds away floating-point noise', () => {
    expect(0.1 + 0.2).not.toBe(0.3);
    expect(roundTo(0.1 + 0.2, 6)).toBe(0.3);
    expect(roundTo(2 / 3, 2)).toBe(0.67);
  });

  it.each([
    [{ tokens: 1000, cost: null }, { tokens: 600, cost: 99 }, 60],
    [{ tokens: null, cost: 2 }, { tokens: 10 ** 9, cost: 1 }, 50],
    [{ tokens: 1000, cost: 1 }, { tokens: 400, cost: 0.9 }, 90],
    [{ tokens: 1000, cost: 1 }, { tokens: 1500, cost: 0.1 }, 150],
    [{ tokens: 3, cost: null }, { tokens: 1, cost: 0 }, 33.33],
    [{ tokens: null, cost: null }, { tokens: 5, cost: 5 }, 0],
  ])('a budget of %j used %j is at %s %', (limits, usage, percent) => {
    expect(budgetUsagePercentage(limits, usage)).toBe(percent);
  });
});
