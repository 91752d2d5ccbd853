import type { LimitWindow } from '@lumi/contract';
import { HOUR_MS, MINUTE_MS, floorHour } from '../../lib/hour-buckets.js';
import { addDays, firstHourOfLocalDate, localDate } from '../../lib/zoned-days.js';

/**
 * A limit's current window (docs/operators/limits.md, "Windows"): the calendar minute or hour (UTC), or the
 * day or month in LUMI_TIMEZONE mapped onto whole UTC hours as the budgets map days (lib/zoned-days.ts).
 */
export interface WindowSpan {
  /** ms, inclusive. */
  start: number;
  /** ms, exclusive: when the window ends and its usage starts again from 0. */
  end: number;
}

function nextMonth(date: string): string {
  const [y, m] = date.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 1)).toISOString().slice(0, 10);
}

/**
 * The local day whose hours hold `now`'s hour: where the offset is not a whole hour, the hour that straddles
 * midnight is the new day's, so from its start on (local 23:30 in India) it is already tomorrow.
 */
function dayOfHour(now: number, timeZone: string): string {
  const today = localDate(now, timeZone);
  const tomorrow = addDays(today, 1);
  return floorHour(now) >= firstHourOfLocalDate(tomorrow, timeZone) ? tomorrow : today;
}

export function windowSpan(window: LimitWindow, now: number, timeZone: string): WindowSpan {
  switch (window) {
    case 'minute': {
      const start = Math.floor(now / MINUTE_MS) * MINUTE_MS;
      return { start, end: start + MINUTE_MS };
    }
    case 'hour': {
      const start = floorHour(now);
      return { start, end: start + HOUR_MS };
    }
    case 'day': {
      const today = dayOfHour(now, timeZone);
      return {
        start: firstHourOfLocalDate(today, timeZone),
        end: firstHourOfLocalDate(addDays(today, 1), timeZone),
      };
    }
    case 'month': {
      const first = `${dayOfHour(now, timeZone).slice(0, 8)}01`;
      return {
        start: firstHourOfLocalDate(first, timeZone),
        end: firstHourOfLocalDate(nextMonth(first), timeZone),
      };
    }
  }
}

/** Seconds until the window ends, rounded up: when asking again can succeed. */
export function secondsUntil(end: number, now: number): number {
  return Math.max(1, Math.ceil((end - now) / 1000));
}
