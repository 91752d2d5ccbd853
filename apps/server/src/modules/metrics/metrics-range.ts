import { utcDay } from '../../db/event-partitions.js';
import { ValidationError } from '../../lib/errors.js';
import { DAY_MS, floorHour, HOUR_MS, hourKey } from '../../lib/hour-buckets.js';

/**
 * A metrics request's range resolved: the instants asked for, [fromMs, toMs); the whole UTC hours they
 * touch, from `first` up to (not including) `end`, with their names; and the UTC days (both included).
 */
export interface MetricsRange {
  fromMs: number;
  toMs: number;
  first: number;
  end: number;
  from: string;
  to: string;
  fromDay: string;
  toDay: string;
}

export interface MetricsRangeRules {
  /** `to` when the request has none: the current instant, or the end of the current UTC hour. */
  defaultTo: 'now' | 'end-of-hour';
  /** `from` when the request has none: this long before `to`. */
  defaultMs: number;
  maxDays: number;
  /** The 422 details, both on the `from` field. */
  messages: { order: string; tooLong: string };
}

/**
 * The instants a range may name: the calendar arithmetic of the day and hour keys (four-digit years,
 * `Date.UTC`'s two-digit-year rule) holds well inside them, and no bot reported before or after them.
 */
const EARLIEST_MS = Date.UTC(2000, 0, 1);
const LATEST_MS = Date.UTC(2100, 0, 1);
const outOfBounds = (field: string) => `${field} must be between 2000-01-01 and 2100-01-01 (UTC)`;

/**
 * The one check of the `from`/`to` query of the metrics endpoints (dimensions, latency): an empty or
 * reversed range, one longer than `maxDays`, or one outside the years 2000 to 2099 is a client's mistake
 * answered 422.
 */
export function parseMetricsRange(
  query: { from?: string | undefined; to?: string | undefined },
  now: number,
  rules: MetricsRangeRules,
): MetricsRange {
  const defaultTo = rules.defaultTo === 'now' ? now : floorHour(now) + HOUR_MS;
  // Dashboards ask for the same few ranges on every refresh: a range once resolved is answered from a
  // small memo (keyed by what it depends on), which spares each cached answer the date arithmetic.
  let known = resolved.get(rules);
  if (!known) resolved.set(rules, (known = new Map()));
  const key = `${query.from ?? ''}|${query.to ?? defaultTo}`;
  const hit = known.get(key);
  if (hit) return hit;
  const range = Object.freeze(resolve(query, defaultTo, rules));
  if (known.size >= MAX_RESOLVED) known.clear();
  known.set(key, range);
  return range;
}

/** Ranges resolved per set of rules; a refused range is never kept (it throws). */
const resolved = new WeakMap<MetricsRangeRules, Map<string, Readonly<MetricsRange>>>();
const MAX_RESOLVED = 256;

function resolve(
  query: { from?: string | undefined; to?: string | undefined },
  defaultTo: number,
  rules: MetricsRangeRules,
): MetricsRange {
  const to = query.to === undefined ? defaultTo : Date.parse(query.to);
  const from = query.from === undefined ? to - rules.defaultMs : Date.parse(query.from);
  if (from < EARLIEST_MS || from > LATEST_MS) throw ValidationError.field('from', outOfBounds('from'));
  if (to < EARLIEST_MS || to > LATEST_MS) throw ValidationError.field('to', outOfBounds('to'));
  if (from >= to) throw ValidationError.field('from', rules.messages.order);
  if (to - from > rules.maxDays * DAY_MS) throw ValidationError.field('from', rules.messages.tooLong);
  const first = floorHour(from);
  const end = floorHour(to - 1) + HOUR_MS;
  return {
    fromMs: from,
    toMs: to,
    first,
    end,
    from: hourKey(first),
    to: hourKey(end),
    fromDay: utcDay(from),
    toDay: utcDay(to - 1),
  };
}
