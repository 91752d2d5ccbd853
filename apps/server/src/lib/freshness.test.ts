import { describe, expect, it } from 'vitest';
import { dataFreshness, describeLag } from './freshness.js';

describe('market data freshness', () => {
  it.each([
    [0, '0 s'],
    [59.9, '59 s'],
    [60, '1 min'],
    [12 * 60 + 30, '12 min'],
    [119 * 60, '119 min'],
    [120 * 60, '2 h'],
    [47 * 3600, '47 h'],
    [48 * 3600, '2 days'],
    [-5, '0 s'],
  ])('describes a lag of %s s as %s', (seconds, text) => {
    expect(describeLag(seconds)).toBe(text);
  });

  const now = Date.parse('2026-11-20T12:00:00.000Z');
  it.each([
    [now, 300, 'current'],
    [now - 300_000, 300, 'current'],
    [now - 300_001, 300, 'stale (5 min behind)'],
    [now - 12 * 60_000, 300, 'stale (12 min behind)'],
    [now - 61_000, 60, 'stale (1 min behind)'],
    [now + 10_000, 300, 'current'],
  ])('a last candle at %s with a limit of %s s is %s', (candle, limit, text) => {
    expect(dataFreshness(candle, now, limit)).toBe(text);
  });
});
