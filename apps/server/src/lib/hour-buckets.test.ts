import { describe, expect, it } from 'vitest';
import { floorHour, hourKey, hourSeries, windowStart } from './hour-buckets.js';

const at = (iso: string) => Date.parse(iso);

describe('hour buckets', () => {
  it.each([
    ['2026-11-20T12:00:00.000Z', '2026-11-20T12:00:00.000Z'],
    ['2026-11-20T12:59:59.999Z', '2026-11-20T12:00:00.000Z'],
    ['2026-11-20T13:00:00.000Z', '2026-11-20T13:00:00.000Z'],
    ['2026-11-20T00:00:00.001Z', '2026-11-20T00:00:00.000Z'],
  ])('puts %s in the bucket %s', (time, bucket) => {
    expect(hourKey(at(time))).toBe(bucket);
    expect(floorHour(at(time))).toBe(at(bucket));
  });

  it('ends a window of n hours with the current hour', () => {
    const now = at('2026-11-20T12:30:00.000Z');
    expect(new Date(windowStart(now, 24)).toISOString()).toBe('2026-11-19T13:00:00.000Z');
    expect(new Date(windowStart(now, 1)).toISOString()).toBe('2026-11-20T12:00:00.000Z');
  });

  it('lists every hour of a window, oldest first', () => {
    const series = hourSeries(at('2026-11-20T01:05:00.000Z'), 3);
    expect(series).toEqual([
      '2026-11-19T23:00:00.000Z',
      '2026-11-20T00:00:00.000Z',
      '2026-11-20T01:00:00.000Z',
    ]);
    expect(hourSeries(at('2026-11-20T01:05:00.000Z'), 168)).toHaveLength(168);
  });
});
