import type { LlmUsage } from '@lumi/contract';
import { describe, expect, it } from 'vitest';
import { isLlmUsageEmpty, llmUsageSummary, toLlmUsageSeries, usageDayOf } from './llm-usage-series';

const WINDOW = { from: '2025-05-27T00:00:00.000Z', to: '2025-06-03T00:00:00.000Z', timezone: 'UTC' };

const usage: LlmUsage = {
  daily_usage: [
    { date: '2025-06-02', provider: 'gemini', tokens_used: 500, cost: 0.1 },
    { date: '2025-06-01', provider: 'gemini', tokens_used: 1000, cost: 0.2 },
    { date: '2025-06-01', provider: 'openai', tokens_used: 3000, cost: 0.5 },
    { date: '2025-06-02', provider: 'openai', tokens_used: 0, cost: 0 },
  ],
  totals: { tokens: 4500, cost: 0.8, requests: 7 },
  unpriced_requests: 0,
  window: WINDOW,
};

describe('toLlmUsageSeries', () => {
  it('pivots the daily usage into one row per day, oldest first', () => {
    expect(toLlmUsageSeries(usage)).toEqual({
      providers: ['gemini', 'openai'],
      rows: [
        { date: '2025-06-01', tokens: { gemini: 1000, openai: 3000 } },
        { date: '2025-06-02', tokens: { gemini: 500, openai: 0 } },
      ],
    });
  });

  it('starts at the first day with tokens and keeps the quiet days after it', () => {
    const rows = toLlmUsageSeries({
      daily_usage: [
        { date: '2025-06-01', provider: 'gemini', tokens_used: 0, cost: 0 },
        { date: '2025-06-02', provider: 'gemini', tokens_used: 0, cost: 0 },
        { date: '2025-06-03', provider: 'gemini', tokens_used: 40, cost: 0.1 },
        { date: '2025-06-04', provider: 'gemini', tokens_used: 0, cost: 0 },
        { date: '2025-06-05', provider: 'gemini', tokens_used: 7, cost: 0 },
      ],
      totals: { tokens: 47, cost: 0.1, requests: 2 },
      unpriced_requests: 0,
      window: WINDOW,
    }).rows;
    expect(rows.map((row) => row.date)).toEqual(['2025-06-03', '2025-06-04', '2025-06-05']);
  });
});

describe('isLlmUsageEmpty', () => {
  it.each([
    { name: 'calls in the window', value: usage, expected: false },
    {
      name: 'no provider at all',
      value: {
        daily_usage: [],
        totals: { tokens: 0, cost: 0, requests: 0 },
        unpriced_requests: 0,
        window: WINDOW,
      },
      expected: true,
    },
    {
      name: 'only zero days',
      value: {
        daily_usage: [{ date: '2025-06-01', provider: 'gemini', tokens_used: 0, cost: 0 }],
        totals: { tokens: 0, cost: 0, requests: 0 },
        unpriced_requests: 0,
        window: WINDOW,
      },
      expected: true,
    },
  ])('$name: $expected', ({ value, expected }) => {
    expect(isLlmUsageEmpty(value)).toBe(expected);
  });
});

describe('llmUsageSummary', () => {
  it('names the providers, the total and the busiest day', () => {
    expect(llmUsageSummary(usage, 30)).toBe(
      `Tokens per day over the last 30 days for gemini, openai; ${(4500).toLocaleString()} tokens in total; ` +
        `busiest day 2025-06-01 with ${(4000).toLocaleString()} tokens.`,
    );
  });
});

describe('usageDayOf', () => {
  it.each([
    ['2026-11-20T17:59:59.000Z', 'UTC', '2026-11-20'],
    ['2026-11-20T18:30:00.000Z', 'Asia/Kolkata', '2026-11-21'],
    ['2026-11-20T18:29:59.000Z', 'Asia/Kolkata', '2026-11-20'],
    ['2026-11-21T03:00:00.000Z', 'America/New_York', '2026-11-20'],
    ['not a time', 'UTC', null],
  ])('puts %s in %s on %s', (at, timeZone, day) => {
    expect(usageDayOf(at, timeZone)).toBe(day);
  });
});
