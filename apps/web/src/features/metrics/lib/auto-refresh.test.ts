import { describe, expect, it } from 'vitest';
import { autoRefreshMs, parseAutoRefresh, refetchIntervalWithin } from './auto-refresh';

describe('auto-refresh', () => {
  it.each([
    { value: null, expected: 'off', ms: false },
    { value: '10s', expected: '10s', ms: 10_000 },
    { value: '30s', expected: '30s', ms: 30_000 },
    { value: '1m', expected: '1m', ms: 60_000 },
    { value: '5m', expected: '5m', ms: 300_000 },
    { value: '1s', expected: 'off', ms: false },
  ])('$value is $expected', ({ value, expected, ms }) => {
    expect(parseAutoRefresh(value)).toBe(expected);
    expect(autoRefreshMs(parseAutoRefresh(value))).toBe(ms);
  });

  it('keeps a panel’s own polling unless auto-refresh asks more often', () => {
    expect(refetchIntervalWithin(false, 60_000)).toBe(60_000);
    expect(refetchIntervalWithin(10_000, 60_000)).toBe(10_000);
    expect(refetchIntervalWithin(300_000, 60_000)).toBe(60_000);
  });
});
