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

/** Day and month windows already worked out, by window, zone and hour: they change only with the hour. */
const zonedSpans = new Map<string, WindowSpan>();
const ZONED_SPANS_KEPT = 64;

export function windowSpan(window: LimitWindow, now: number, timeZone: string): WindowSpan {
  if (window === 'day' || window === 'month') {
    const key = `${window}|${timeZone}|${floorHour(now)}`;
    let span = zonedSpans.get(key);
    if (!span) {
      span = zonedSpan(window, now, timeZone);
      if (zonedSpans.size >= ZONED_SPANS_KEPT) zonedSpans.clear();
      zonedSpans.set(key, span);
    }
    return span;
  }
  const start = window === 'minute' ? Math.floor(now / MINUTE_MS) * MINUTE_MS : floorHour(now);
  return { start, end: start + (window === 'minute' ? MINUTE_MS : HOUR_MS) };
}

/** A day or month window: whole UTC hours, as dayOfHour assigns them, so the same for all of an hour. */
function zonedSpan(window: 'day' | 'month', now: number, timeZone: string): WindowSpan {
  switch (window) {
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
