import { floorHour, HOUR_MS } from './hour-buckets.js';

/**
 * Calendar days in an IANA time zone, worked out with Intl alone (no offset tables of our own). The
 * rollups are hourly in UTC, so a local day is mapped onto whole UTC hours: day D holds the hours from
 * the one containing D's first instant up to (not including) the one containing the next day's. Where the
 * offset is not a whole hour (India +05:30, Nepal +05:45, Newfoundland -03:30), the hour that straddles
 * local midnight therefore counts for the new day: a budget may see up to 45 minutes of the previous
 * evening's usage, never miss any of the current day's.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      calendar: 'gregory',
      numberingSystem: 'latn',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    formatters.set(timeZone, format);
  }
  return format;
}

function formatLocalDate(ms: number, timeZone: string): string {
  const parts: Record<string, string> = {};
  for (const part of formatter(timeZone).formatToParts(ms)) parts[part.type] = part.value;
  return `${parts.year!.padStart(4, '0')}-${parts.month}-${parts.day}`;
}

/** Per time zone, the local day last asked about and the instants it spans: `from` <= ms < `to`. */
const currentDays = new Map<string, { date: string; from: number; to: number }>();

/**
 * The local calendar date (`YYYY-MM-DD`) of an instant. Dashboards ask for today's date on every request,
 * and Intl is slow at it, so the span of the last day found is kept per zone and answers instants within.
 */
export function localDate(ms: number, timeZone: string): string {
  const day = currentDays.get(timeZone);
  if (day && ms >= day.from && ms < day.to) return day.date;
  const date = formatLocalDate(ms, timeZone);
  const from = startOfLocalDate(date, timeZone);
  const to = startOfLocalDate(addDays(date, 1), timeZone);
  // Guards against an instant outside the span bisection found (it never happens with real zone data).
  if (ms >= from && ms < to) currentDays.set(timeZone, { date, from, to });
  return date;
}

/** `YYYY-MM-DD` plus `days` calendar days (negative to go back). */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/**
 * The first instant (ms) whose local date is `date`: usually local midnight, later where midnight is
 * skipped by a daylight-saving change (e.g. America/Santiago). Found by bisection on Intl's answer; every
 * offset in use lies within ±14 hours, so the instant is within 36 hours of UTC midnight of that date.
 */
export function startOfLocalDate(date: string, timeZone: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const utcMidnight = Date.UTC(y, m - 1, d);
  let before = utcMidnight - 36 * HOUR_MS; // local date < date
  let after = utcMidnight + 36 * HOUR_MS; // local date >= date
  while (after - before > 1) {
    const middle = Math.floor((before + after) / 2);
    if (formatLocalDate(middle, timeZone) >= date) after = middle;
    else before = middle;
  }
  return after;
}

/**
 * Day starts already worked out, by time zone and date. The bisection above costs about 40 Intl calls, and
 * the dashboards and budgets ask for the same few dozen days again and again; the answer for a (date, zone)
 * never changes within a process (the tz database is fixed at startup), so a bounded memo is safe.
 */
const dayStarts = new Map<string, number>();
const MAX_DAY_STARTS = 2_000;

/** The first UTC hour bucket (ms) of local day `date` under the rule above. */
export function firstHourOfLocalDate(date: string, timeZone: string): number {
  const key = `${timeZone}|${date}`;
  let start = dayStarts.get(key);
  if (start === undefined) {
    start = floorHour(startOfLocalDate(date, timeZone));
    // Map iteration is insertion order: drop the oldest entry once full.
    if (dayStarts.size >= MAX_DAY_STARTS) dayStarts.delete(dayStarts.keys().next().value!);
    dayStarts.set(key, start);
  }
  return start;
}

export interface LocalDay {
  date: string;
  /** First hour bucket of the day (ms), inclusive. */
  from: number;
  /** First hour bucket of the next day (ms), exclusive. */
  to: number;
}

/** The `days` local days ending with the one that holds `now`, oldest first. */
export function lastLocalDays(now: number, days: number, timeZone: string): LocalDay[] {
  const today = localDate(now, timeZone);
  const dates = Array.from({ length: days + 1 }, (_, i) => addDays(today, i - days + 1));
  const starts = dates.map((date) => firstHourOfLocalDate(date, timeZone));
  return dates.slice(0, days).map((date, i) => ({ date, from: starts[i]!, to: starts[i + 1]! }));
}
