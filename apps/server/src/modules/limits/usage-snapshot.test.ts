import { describe, expect, it } from 'vitest';
import { HOUR_MS } from '../../lib/hour-buckets.js';
import { sumHours, ZERO, type Snapshot } from './usage-snapshot.js';

const MONTH = Date.parse('2026-11-01T00:00:00.000Z');
const DAY = Date.parse('2026-11-20T00:00:00.000Z');
const NOW_HOUR = Date.parse('2026-11-20T12:00:00.000Z');

function snapshot(): Snapshot {
  const sums = (requests: number) => ({ ...ZERO, requests, granted: requests });
  return {
    earlier: { from: MONTH, to: DAY, sums: sums(40) },
    hours: new Map([
      [DAY + 3 * HOUR_MS, sums(2)],
      [NOW_HOUR, sums(1)],
    ]),
    settled: [],
    minute: '2026-11-20T12:30',
    minuteGranted: 0,
    recent: null,
    expires: Infinity,
  };
}

describe('sumHours', () => {
  it("adds the month's earlier hours to a window from the month's start, and leaves them out of the day's", () => {
    const month = sumHours(snapshot(), MONTH, NOW_HOUR + HOUR_MS, NOW_HOUR, []);
    expect(month.requests).toBe(43);
    const day = sumHours(snapshot(), DAY, NOW_HOUR + HOUR_MS, NOW_HOUR, []);
    expect(day.requests).toBe(3);
    expect(sumHours(snapshot(), NOW_HOUR, NOW_HOUR + HOUR_MS, NOW_HOUR, []).requests).toBe(1);
  });

  it("counts a grant kept in memory in place of the hour's stored one", () => {
    expect(sumHours(snapshot(), DAY, NOW_HOUR + HOUR_MS, NOW_HOUR, [[NOW_HOUR, 5]]).granted).toBe(7);
  });

  it("refuses a window that starts inside the month's earlier hours, which are known only summed", () => {
    expect(() => sumHours(snapshot(), MONTH + 24 * HOUR_MS, NOW_HOUR, NOW_HOUR, [])).toThrow(/splits/);
  });
});
