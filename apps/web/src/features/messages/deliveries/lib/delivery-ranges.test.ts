import { describe, expect, it } from 'vitest';
import { isDeliveryRange, rangeStart } from './delivery-ranges';

describe('delivery ranges', () => {
  const now = Date.parse('2026-11-22T12:00:00.000Z');

  it.each([
    ['1h', '2026-11-22T11:00:00.000Z'],
    ['24h', '2026-11-21T12:00:00.000Z'],
    ['7d', '2026-11-15T12:00:00.000Z'],
    ['30d', '2026-10-23T12:00:00.000Z'],
  ] as const)('%s starts at %s', (range, start) => {
    expect(rangeStart(range, now)).toBe(start);
  });

  it('has no start for any time', () => {
    expect(rangeStart(null, now)).toBeUndefined();
  });

  it.each([
    ['24h', true],
    ['2d', false],
    [null, false],
  ])('%s is a range: %s', (value, expected) => {
    expect(isDeliveryRange(value)).toBe(expected);
  });
});
