import { LATENCY_LIMITS, LLM_RANGE_MAX_DAYS, LLM_RANGE_MESSAGES, type LatencyInterval } from '@lumi/contract';
import { dateTimeFormat } from '@/lib/intl';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * The Metrics screen's time ranges (docs/operators/console-guide.md, "Metrics"), as they appear in the URL
 * (`range`).
 */
export const RELATIVE_RANGES = [
  { value: '1h', label: 'Last 1 hour', ms: HOUR_MS },
  { value: '6h', label: 'Last 6 hours', ms: 6 * HOUR_MS },
  { value: '24h', label: 'Last 24 hours', ms: DAY_MS },
  { value: '7d', label: 'Last 7 days', ms: 7 * DAY_MS },
  { value: '30d', label: 'Last 30 days', ms: 30 * DAY_MS },
  { value: '90d', label: 'Last 90 days', ms: 90 * DAY_MS },
] as const;
export type RelativeRange = (typeof RELATIVE_RANGES)[number]['value'];
export const DEFAULT_RANGE: RelativeRange = '24h';
export const CUSTOM_RANGE = 'custom';

/** A range ending now, or a fixed one from..to (ISO 8601 instants, `to` exclusive). */
export type TimeRange =
  { kind: 'relative'; value: RelativeRange } | { kind: 'custom'; from: string; to: string };

export const DEFAULT_TIME_RANGE: TimeRange = { kind: 'relative', value: DEFAULT_RANGE };

/** The longest custom range: what one request to the dimension and latency endpoints may read. */
const MAX_RANGE_MS = Math.min(LLM_RANGE_MAX_DAYS, LATENCY_LIMITS.maxDays) * DAY_MS;

export const CUSTOM_RANGE_MESSAGES = {
  fromRequired: 'Enter a start date and time',
  toRequired: 'Enter an end date and time',
  order: 'The start must be before the end',
  tooLong: LLM_RANGE_MESSAGES.tooLong,
} as const;

/**
 * Checks a custom range as the form holds it (the values of two datetime-local inputs, local time):
 * the instants when it is valid, otherwise a message per field.
 */
export function validateCustomRange(
  fromText: string,
  toText: string,
): { ok: true; from: string; to: string } | { ok: false; errors: { from?: string; to?: string } } {
  const from = fromText ? new Date(fromText) : null;
  const to = toText ? new Date(toText) : null;
  const errors: { from?: string; to?: string } = {};
  if (!from || Number.isNaN(from.getTime())) errors.from = CUSTOM_RANGE_MESSAGES.fromRequired;
  if (!to || Number.isNaN(to.getTime())) errors.to = CUSTOM_RANGE_MESSAGES.toRequired;
  if (errors.from || errors.to || !from || !to) return { ok: false, errors };
  if (from.getTime() >= to.getTime()) return { ok: false, errors: { to: CUSTOM_RANGE_MESSAGES.order } };
  if (to.getTime() - from.getTime() > MAX_RANGE_MS)
    return { ok: false, errors: { to: CUSTOM_RANGE_MESSAGES.tooLong } };
  return { ok: true, from: from.toISOString(), to: to.toISOString() };
}

const isInstant = (value: string | null): value is string =>
  value !== null && /^\d{4}-\d{2}-\d{2}T/.test(value) && !Number.isNaN(Date.parse(value));

/**
 * The range named in the URL: `range=7d`, or `range=custom&from=…&to=…` with instants that make a valid
 * range; anything else is the last 24 hours, so a broken link still shows a view.
 */
export function parseTimeRange(range: string | null, from: string | null, to: string | null): TimeRange {
  if (range === CUSTOM_RANGE && isInstant(from) && isInstant(to)) {
    const checked = validateCustomRange(from, to);
    if (checked.ok) return { kind: 'custom', from: checked.from, to: checked.to };
  }
  const relative = RELATIVE_RANGES.find((option) => option.value === range);
  return relative ? { kind: 'relative', value: relative.value } : DEFAULT_TIME_RANGE;
}

/** The URL's parameters for a range; the default is left out, so a plain link stays plain. */
export function timeRangeParams(range: TimeRange): {
  range: string | null;
  from: string | null;
  to: string | null;
} {
  if (range.kind === 'custom') return { range: CUSTOM_RANGE, from: range.from, to: range.to };
  return { range: range.value === DEFAULT_RANGE ? null : range.value, from: null, to: null };
}

/** The instants a range covers at `now`: a relative range ends now, so each refresh reads up to date. */
export function resolveTimeRange(range: TimeRange, now: Date): { from: string; to: string } {
  if (range.kind === 'custom') return { from: range.from, to: range.to };
  const option = RELATIVE_RANGES.find((candidate) => candidate.value === range.value)!;
  return { from: new Date(now.getTime() - option.ms).toISOString(), to: now.toISOString() };
}

/** Hour by hour up to 7 days (the latency endpoint's limit for hours), day by day beyond. */
export function rangeInterval(from: string, to: string): LatencyInterval {
  return Date.parse(to) - Date.parse(from) <= LATENCY_LIMITS.maxHourlyDays * DAY_MS ? 'hour' : 'day';
}

/** One string per range, for query keys: a relative range keeps its key while its instants move on. */
export function timeRangeKey(range: TimeRange): string {
  return range.kind === 'custom' ? `${range.from}/${range.to}` : range.value;
}

const dateTime = dateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/**
 * The range in words and, once answered, the whole hours the answer covered (its `from` and `to`), so
 * "Last 1 hour" says it shows two hours' figures when it began mid-hour.
 */
export function describeHourlyRange(range: TimeRange, answer?: { from: string; to: string }): string {
  const words = describeTimeRange(range);
  if (!answer) return words;
  return `${words} · whole hours ${dateTime.formatRange(new Date(answer.from), new Date(answer.to))}`;
}

/** The range in words: "Last 7 days", or "Nov 1, 2026, 10:00 AM – Nov 3, 2026, 12:00 PM". */
export function describeTimeRange(range: TimeRange): string {
  if (range.kind === 'custom') return dateTime.formatRange(new Date(range.from), new Date(range.to));
  return RELATIVE_RANGES.find((option) => option.value === range.value)!.label;
}

/** Dates of the daily answers: their days are UTC calendar days (YYYY-MM-DD, read as UTC midnight). */
const utcDate = dateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });

function utcDaysInWords(days: number, endsToday: boolean): string {
  if (!endsToday) return days === 1 ? '1 whole UTC day' : `${days} whole UTC days`;
  if (days === 1) return 'Today (UTC day)';
  if (days === 2) return 'Today and the day before (UTC days)';
  return `Today and the ${days - 1} days before (UTC days)`;
}

/**
 * The whole UTC days a daily answer covered (top chats and users, whose spend is kept per UTC day), in
 * words and dates: "Today and the 30 days before (UTC days) · Oct 26 – Nov 25, 2026". So beside the hourly
 * panels of the same range it does not pass for the range's hours.
 */
export function describeUtcDays(answer: { from_day: string; to_day: string }, now: Date): string {
  const from = Date.parse(answer.from_day);
  const to = Date.parse(answer.to_day);
  const days = Math.round((to - from) / DAY_MS) + 1;
  const words = utcDaysInWords(days, answer.to_day === now.toISOString().slice(0, 10));
  return `${words} · ${utcDate.formatRange(from, to)}`;
}
