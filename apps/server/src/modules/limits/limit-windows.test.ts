import { describe, expect, it } from 'vitest';
import { windowSpan } from './limit-windows.js';

const at = (iso: string) => Date.parse(iso);
const span = (window: 'minute' | 'hour' | 'day' | 'month', now: string, zone = 'UTC') => {
  const { start, end } = windowSpan(window, at(now), zone);
  return [new Date(start).toISOString(), new Date(end).toISOString()];
};

describe('a limit’s current window (docs/operators/limits.md, "Limits")', () => {
  it('is the calendar minute and hour in UTC', () => {
    expect(span('minute', '2026-11-20T12:30:45.500Z')).toEqual([
      '2026-11-20T12:30:00.000Z',
      '2026-11-20T12:31:00.000Z',
    ]);
    expect(span('hour', '2026-11-20T12:30:45.500Z')).toEqual([
      '2026-11-20T12:00:00.000Z',
      '2026-11-20T13:00:00.000Z',
    ]);
  });

  it('is the day and month in the time zone, on whole UTC hours', () => {
    expect(span('day', '2026-11-20T23:30:00.000Z', 'Europe/Berlin')).toEqual([
      '2026-11-20T23:00:00.000Z',
      '2026-11-21T23:00:00.000Z',
    ]);
    expect(span('month', '2026-12-31T23:30:00.000Z', 'Europe/Berlin')).toEqual([
      '2026-12-31T23:00:00.000Z',
      '2027-01-31T23:00:00.000Z',
    ]);
  });

  it('counts the hour that straddles midnight for the new day, so the window always holds now', () => {
    // India is UTC+05:30: local midnight is 18:30 UTC, and the 18:00 hour is the new day's.
    for (const now of ['2026-11-20T18:00:00.000Z', '2026-11-20T18:15:00.000Z', '2026-11-20T18:45:00.000Z']) {
      const [start, end] = span('day', now, 'Asia/Kolkata');
      expect([start, end]).toEqual(['2026-11-20T18:00:00.000Z', '2026-11-21T18:00:00.000Z']);
    }
    expect(span('day', '2026-11-20T17:59:00.000Z', 'Asia/Kolkata')).toEqual([
      '2026-11-19T18:00:00.000Z',
      '2026-11-20T18:00:00.000Z',
    ]);
    // The last day of a month at 23:45 local time is already the next month's.
    expect(span('month', '2026-11-30T18:15:00.000Z', 'Asia/Kolkata')).toEqual([
      '2026-11-30T18:00:00.000Z',
      '2026-12-31T18:00:00.000Z',
    ]);
  });
});
