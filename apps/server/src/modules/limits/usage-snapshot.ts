/**
 * A subject's usage as the allowance reads it (usage-reader.ts; docs/operators/limits.md, "What counts"):
 * its sums per hour of the month, and the sums over a window's hours, with the calls admitted but not yet
 * reported counted in.
 */

import { HOUR_MS, MINUTE_MS, floorHour, hourKey } from '../../lib/hour-buckets.js';
import { bucketNames } from './bucket-names.js';
import { windowSpan } from './limit-windows.js';

export interface SnapshotSpan {
  minute: string;
  minuteStart: number;
  earlierFrom: number;
  earlierTo: number;
  /** `earlierFrom` and `earlierTo` as bucket names. */
  from: string;
  cut: string;
}

let lastSpan: { timezone: string; span: SnapshotSpan } | null = null;

/**
 * Where a snapshot read at `now` is cut: the month's first hour, the hour up to which it is summed (the day's
 * first, or the hour before the current one if that is earlier), the minute. Made once a minute (as
 * bucketNames): every subject of every check asks for it.
 */
export function snapshotSpan(now: number, timezone: string): SnapshotSpan {
  const minuteStart = Math.floor(now / MINUTE_MS) * MINUTE_MS;
  if (lastSpan?.timezone === timezone && lastSpan.span.minuteStart === minuteStart) return lastSpan.span;
  const { minute } = bucketNames(now);
  // Days and months are whole UTC hours (limit-windows.ts).
  const earlierFrom = windowSpan('month', now, timezone).start;
  const day = windowSpan('day', now, timezone).start;
  const earlierTo = Math.max(earlierFrom, Math.min(day, floorHour(now) - HOUR_MS));
  const span = {
    minute,
    minuteStart,
    earlierFrom,
    earlierTo,
    from: hourKey(earlierFrom),
    cut: hourKey(earlierTo),
  };
  lastSpan = { timezone, span };
  return span;
}

export interface HourSums {
  requests: number;
  tokens: number;
  cost_usd: number;
  granted: number;
}

/**
 * What one chat, user or feature used this month, read with its grants and, if needed, its minute's calls
 * (usage-rows.repository.ts) and kept briefly: the stored usage and the calls admitted, summed over the
 * month's hours before the day's (`earlier`) and per hour since (`hours`), the calls admitted in the current
 * minute, and (for a chat or user whose limits count a minute) its calls of the current minute.
 */
export interface Snapshot {
  /**
   * The sums of the hours from `from` (the month's first hour) up to `to` (the day's first hour, or the hour
   * before the current one if that is earlier): a window starts at `from` or from `to` on.
   */
  earlier: { from: number; to: number; sums: HourSums };
  /** The hours from `earlier.to` on, each with its sums. */
  hours: Map<number, HourSums>;
  /**
   * Sums over ranges of hours before the current one (a call admitted now leaves those alone): a few per
   * snapshot, one for each window start its limits have, so they are looked for one by one.
   */
  settled: { from: number; to: number; sums: HourSums }[];
  minute: string;
  minuteGranted: number;
  recent: { requests: number; tokens: number; cost_usd: number } | null;
  expires: number;
}

export const ZERO: HourSums = { requests: 0, tokens: 0, cost_usd: 0, granted: 0 };

/**
 * A window's cost or tokens: what ingestion stored, plus the calls admitted but not reported yet (grants
 * beyond the calls stored), each counted at the window's average cost per call. So a limit is reached a
 * little before its last calls are reported; the overshoot is bounded by the calls in flight.
 */
export function withInFlight(usage: HourSums, reported: number): number {
  const inFlight = Math.max(0, usage.granted - usage.requests);
  return usage.requests > 0 ? reported + (inFlight * reported) / usage.requests : reported;
}

export const requestsOf = (usage: HourSums) => Math.max(usage.granted, usage.requests);

function add(total: HourSums, sums: HourSums) {
  total.requests += sums.requests;
  total.tokens += sums.tokens;
  total.cost_usd += sums.cost_usd;
  total.granted += sums.granted;
}

/**
 * The hours' sums from `from` to `to`, with the grants counted in memory (`counted`) in place of those
 * read. The hours before `current` (a feature's month is 700 of them) are summed once per snapshot.
 */
export function sumHours(
  snapshot: Snapshot,
  from: number,
  to: number,
  current: number,
  counted: [hour: number, granted: number][],
): HourSums {
  const total = { ...ZERO };
  const settledTo = Math.min(to, current);
  if (from < settledTo) {
    let settled = snapshot.settled.find((range) => range.from === from && range.to === settledTo)?.sums;
    if (!settled) {
      settled = { ...ZERO };
      const { earlier } = snapshot;
      if (earlier.from < earlier.to && from < earlier.to) {
        // Those hours are known only summed from earlier.from (windowSpan: a window starts at the month's, the
        // day's, the hour's or the minute's start, each a whole hour).
        if (from > earlier.from || settledTo < earlier.to) {
          throw new Error(`A window from ${new Date(from).toISOString()} splits the month's earlier hours`);
        }
        add(settled, earlier.sums);
      }
      for (const [hour, sums] of snapshot.hours) if (hour >= from && hour < settledTo) add(settled, sums);
      snapshot.settled.push({ from, to: settledTo, sums: settled });
    }
    add(total, settled);
  }
  // The hours read since `earlier.to` (a day's or so), not every hour to the window's end (a month's 700).
  const latest = Math.max(from, current);
  for (const [hour, sums] of snapshot.hours) if (hour >= latest && hour < to) add(total, sums);
  for (const [hour, granted] of counted) {
    if (hour >= from && hour < to) total.granted += granted - (snapshot.hours.get(hour)?.granted ?? 0);
  }
  return total;
}
