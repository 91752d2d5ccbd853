import type { GeminiUsage } from '@lumi/contract';
import { describe, expect, it } from 'vitest';
import {
  geminiAxisLabel,
  geminiDayTicks,
  geminiLabelKind,
  geminiModelRows,
  isGeminiAnswerEmpty,
  tokenShares,
} from './gemini-series';

describe('geminiLabelKind', () => {
  it.each([
    { hours: 24, expected: 'hour' },
    { hours: 48, expected: 'hour' },
    { hours: 168, expected: 'day' },
  ] as const)('$hours hours use $expected labels', ({ hours, expected }) => {
    expect(geminiLabelKind(hours)).toBe(expected);
  });
});

describe('geminiAxisLabel', () => {
  const timestamp = '2025-06-03T14:00:00.000Z';
  const date = new Date(timestamp);
  it.each([
    {
      hours: 24,
      expected: new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' }).format(date),
    },
    {
      hours: 48,
      expected: new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' }).format(date),
    },
    {
      hours: 168,
      expected: new Intl.DateTimeFormat(undefined, {
        weekday: 'short',
        month: 'short',
        day: 'numeric',
      }).format(date),
    },
  ] as const)('$hours hours: $expected', ({ hours, expected }) => {
    expect(geminiAxisLabel(timestamp, hours)).toBe(expected);
  });
});

describe('geminiDayTicks', () => {
  it('ticks the first hour of each new local day', () => {
    const start = new Date(2025, 5, 1, 22).getTime();
    const series = Array.from({ length: 30 }, (_, hour) => ({
      timestamp: new Date(start + hour * 3_600_000).toISOString(),
      requests: 0,
      tokens: 0,
      cost: 0,
    }));
    expect(geminiDayTicks(series)).toEqual([
      new Date(2025, 5, 2, 0).toISOString(),
      new Date(2025, 5, 3, 0).toISOString(),
    ]);
  });
});

describe('geminiModelRows', () => {
  it('labels the models and puts the busiest first', () => {
    const usage: GeminiUsage = {
      summary: {
        total_requests: 6,
        total_tokens: 600,
        total_cost: 0.06,
        models: {
          'text-embedding-004': { requests: 1, estimated_tokens: 100, estimated_cost: 0.01 },
          'gemini-1.5-pro': { requests: 4, estimated_tokens: 400, estimated_cost: 0.04 },
          'gemini-pro-vision': { requests: 1, estimated_tokens: 100, estimated_cost: 0.01 },
        },
      },
      time_series: [],
      last_updated: null,
    };
    expect(geminiModelRows(usage).map((row) => [row.model, row.label])).toEqual([
      ['gemini-1.5-pro', 'Gemini Pro'],
      ['gemini-pro-vision', 'Gemini Vision'],
      ['text-embedding-004', 'Text Embedding'],
    ]);
  });
});

describe('isGeminiAnswerEmpty', () => {
  it.each([
    { name: 'no body', value: undefined, expected: true },
    { name: 'null', value: null, expected: true },
    { name: 'an empty object', value: {}, expected: true },
    { name: 'a summary without a series', value: { summary: {} }, expected: true },
    { name: 'a full answer', value: { summary: {}, time_series: [] }, expected: false },
  ])('$name: $expected', ({ value, expected }) => {
    expect(isGeminiAnswerEmpty(value)).toBe(expected);
  });
});

describe('tokenShares', () => {
  it.each([
    { tokens: [300, 100], expected: [75, 25] },
    { tokens: [50], expected: [100] },
    { tokens: [0, 0], expected: [0, 0] },
    { tokens: [], expected: [] },
  ])('$tokens is $expected %', ({ tokens, expected }) => {
    expect(tokenShares(tokens.map((value) => ({ tokens: value })))).toEqual(expected);
  });
});
