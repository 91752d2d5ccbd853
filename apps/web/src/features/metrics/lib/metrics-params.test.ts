import { describe, expect, it } from 'vitest';
import { parseGeminiWindow, parseMetricsTab } from './metrics-params';

describe('parseMetricsTab', () => {
  it.each([
    { value: null, expected: 'llm-usage' },
    { value: 'token-budgets', expected: 'token-budgets' },
    { value: 'integrations', expected: 'integrations' },
    { value: 'nonsense', expected: 'llm-usage' },
  ])('$value is $expected', ({ value, expected }) => {
    expect(parseMetricsTab(value)).toBe(expected);
  });
});

describe('parseGeminiWindow', () => {
  it.each([
    { value: null, expected: 24 },
    { value: '48', expected: 48 },
    { value: '168', expected: 168 },
    { value: '72', expected: 24 },
    { value: 'abc', expected: 24 },
  ])('$value is $expected', ({ value, expected }) => {
    expect(parseGeminiWindow(value)).toBe(expected);
  });
});
