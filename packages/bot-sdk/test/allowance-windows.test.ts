import { describe, expect, it } from 'vitest';
import { windowSpan as lumiWindowSpan } from '../../../apps/server/src/modules/limits/limit-windows.js';
import { windowSpan, WindowClock } from '../src/allowance/windows.js';
import type { LimitWindow } from '../src/wire.js';

/**
 * The windows a local check counts in must be Lumi's own (docs/operators/limits.md, "Windows"): the
 * SDK works them out itself, so they are held here to the server's code, in zones with daylight saving,
 * half- and quarter-hour offsets and a skipped midnight.
 */

const iso = (ms: number) => new Date(ms).toISOString();

describe('the windows of the local checks', () => {
  it.each([
    ['minute', '2026-03-10T12:00:30Z', 'UTC', '2026-03-10T12:00:00.000Z', '2026-03-10T12:01:00.000Z'],
    ['hour', '2026-03-10T12:59:59Z', 'Asia/Kolkata', '2026-03-10T12:00:00.000Z', '2026-03-10T13:00:00.000Z'],
    ['day', '2026-03-10T12:00:00Z', 'UTC', '2026-03-10T00:00:00.000Z', '2026-03-11T00:00:00.000Z'],
    // A day of 23 hours: New York moves to summer time on 8 March 2026.
    [
      'day',
      '2026-03-08T12:00:00Z',
      'America/New_York',
      '2026-03-08T05:00:00.000Z',
      '2026-03-09T04:00:00.000Z',
    ],
    // +05:30: local midnight is 18:30 UTC; the day takes whole UTC hours, from 18:00.
    ['day', '2026-03-10T12:00:00Z', 'Asia/Kolkata', '2026-03-09T18:00:00.000Z', '2026-03-10T18:00:00.000Z'],
    // 23:40 local on the 10th, in the hour that straddles midnight: it counts for the 11th.
    ['day', '2026-03-10T18:10:00Z', 'Asia/Kolkata', '2026-03-10T18:00:00.000Z', '2026-03-11T18:00:00.000Z'],
    [
      'month',
      '2026-02-15T00:00:00Z',
      'Europe/Berlin',
      '2026-01-31T23:00:00.000Z',
      '2026-02-28T23:00:00.000Z',
    ],
  ] as const)('%s at %s in %s: %s to %s', (window, now, zone, start, end) => {
    const span = windowSpan(window, Date.parse(now), zone);
    expect([iso(span.start), iso(span.end)]).toEqual([start, end]);
  });

  it('are Lumi’s windows, which always hold now, also in the hour that straddles midnight', () => {
    const zones = [
      'UTC',
      'Europe/Berlin',
      'America/New_York',
      'America/Santiago',
      'America/St_Johns',
      'Asia/Kolkata',
      'Asia/Kathmandu',
      'Australia/Lord_Howe',
      'Pacific/Chatham',
    ];
    const windows: LimitWindow[] = ['minute', 'hour', 'day', 'month'];
    // Every 613 minutes over a year, so every time of day comes round: both daylight-saving changes of
    // each zone, every month's end, and the hours that straddle midnight.
    const from = Date.parse('2026-01-01T00:00:00Z');
    const differ: string[] = [];
    for (const zone of zones) {
      for (let now = from; now < from + 366 * 86_400_000; now += 613 * 60_000) {
        for (const window of windows) {
          const ours = windowSpan(window, now, zone);
          const lumi = lumiWindowSpan(window, now, zone);
          const same =
            ours.start === lumi.start && ours.end === lumi.end && lumi.start <= now && now < lumi.end;
          if (!same) differ.push(`${window} ${zone} ${iso(now)}: ${iso(ours.start)} ${iso(lumi.start)}`);
        }
      }
    }
    expect(differ).toEqual([]);
  });

  it('keeps the current window until it ends', () => {
    const clock = new WindowClock('Asia/Kolkata');
    const now = Date.parse('2026-03-10T12:00:00Z');
    expect(iso(clock.end('day', now))).toBe('2026-03-10T18:00:00.000Z');
    expect(iso(clock.end('day', Date.parse('2026-03-10T18:00:00Z')))).toBe('2026-03-11T18:00:00.000Z');
    expect(iso(clock.end('month', now))).toBe('2026-03-31T18:00:00.000Z');
  });
});
