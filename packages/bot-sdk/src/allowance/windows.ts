import type { LimitWindow } from '../wire.js';

/**
 * A limit's current window, worked out the way Lumi works it out (docs/operators/limits.md, "Windows";
 * apps/server/src/modules/limits/limit-windows.ts): the calendar minute or hour in UTC, or the day or month
 * in Lumi's time zone mapped onto whole UTC hours: day D holds the hours from the one containing D's first
 * instant up to the one containing the next day's. Only Intl is used (no offset tables of our own).
 */

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;

export interface WindowSpan {
  /** ms, inclusive. */
  start: number;
  /** ms, exclusive. */
  end: number;
}

/** `YYYY-MM-DD` of an instant in `timeZone`. */
function localDate(format: Intl.DateTimeFormat, ms: number): string {
  let year = '';
  let month = '';
  let day = '';
  for (const part of format.formatToParts(ms)) {
    if (part.type === 'year') year = part.value.padStart(4, '0');
    else if (part.type === 'month') month = part.value;
    else if (part.type === 'day') day = part.value;
  }
  return `${year}-${month}-${day}`;
}

function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

function nextMonth(date: string): string {
  const [y, m] = date.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 1)).toISOString().slice(0, 10);
}

/**
 * The first UTC hour (ms) of local day `date`: the hour holding the first instant whose local date is
 * `date`, found by bisection (every offset in use lies within ±14 hours, so within 36 hours of UTC midnight).
 */
function firstHourOf(format: Intl.DateTimeFormat, date: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const utcMidnight = Date.UTC(y, m - 1, d);
  let before = utcMidnight - 36 * HOUR_MS;
  let after = utcMidnight + 36 * HOUR_MS;
  while (after - before > 1) {
    const middle = Math.floor((before + after) / 2);
    if (localDate(format, middle) >= date) after = middle;
    else before = middle;
  }
  return Math.floor(after / HOUR_MS) * HOUR_MS;
}

/** One formatter per zone: making one costs more than using it. */
const formats = new Map<string, Intl.DateTimeFormat>();

function dateFormat(timeZone: string): Intl.DateTimeFormat {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      calendar: 'gregory',
      numberingSystem: 'latn',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    if (formats.size >= 100) formats.clear();
    formats.set(timeZone, format);
  }
  return format;
}

/** Whether Intl knows the zone. */
export function knownTimeZone(timeZone: string): boolean {
  try {
    dateFormat(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The window of kind `window` that holds `now`. */
export function windowSpan(window: LimitWindow, now: number, timeZone: string): WindowSpan {
  if (window === 'minute' || window === 'hour') {
    const size = window === 'minute' ? MINUTE_MS : HOUR_MS;
    const start = Math.floor(now / size) * size;
    return { start, end: start + size };
  }
  const format = dateFormat(timeZone);
  const next = window === 'day' ? (date: string) => addDays(date, 1) : nextMonth;
  let first = localDate(format, now);
  if (window === 'month') first = `${first.slice(0, 8)}01`;
  let span = { start: firstHourOf(format, first), end: firstHourOf(format, next(first)) };
  // Where the offset is not a whole hour, the hour that straddles local midnight already belongs to the
  // next day (or month), though its first minutes are still the old one locally.
  if (span.end <= now) span = { start: span.end, end: firstHourOf(format, next(next(first))) };
  return span;
}

/**
 * The current window of each kind, kept until it ends: the checks ask for a window's end on every rollover
 * of a counter, and a day's costs some 80 Intl calls, so it is worked out once per window.
 */
export class WindowClock {
  readonly #spans = new Map<LimitWindow, WindowSpan>();
  constructor(readonly timeZone: string) {}

  /** When the window of kind `window` holding `now` ends (ms). */
  end(window: LimitWindow, now: number): number {
    let span = this.#spans.get(window);
    if (!span || now >= span.end || now < span.start) {
      span = windowSpan(window, now, this.timeZone);
      this.#spans.set(window, span);
    }
    return span.end;
  }
}
