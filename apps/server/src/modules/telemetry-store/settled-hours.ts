import { floorHour, HOUR_MS, hourKey } from '../../lib/hour-buckets.js';
import type { TtlCache } from '../../lib/ttl-cache.js';

// The dashboards' settled hours. A bot reports as things happen, so stored batches change the current hour
// and, for a while after it turns, the one before; the hours before those change only when a late event
// arrives, retention removes rollups or housekeeping folds them. Answers over long ranges keep the
// settled hours' part in a cache of its own (services.ts, `historyCache`), which only such changes clear,
// and read the recent hours afresh.

/** Hours before this (ms) are settled when it is `now`: all but the current hour and the one before it. */
function settledBefore(now: number): number {
  return floorHour(now) - HOUR_MS;
}

/**
 * The first UTC day (`YYYY-MM-DD`) that is not wholly settled when it is `now`: the days before it are, so
 * answers by day (the top chats and users) may keep theirs as answers by hour keep their settled hours.
 */
export function firstLiveDay(now: number): string {
  return new Date(settledBefore(now)).toISOString().slice(0, 10);
}

/**
 * How far another instance's clock may run ahead of this one's while every instance's settled hours stay
 * exact. Clocks kept by NTP differ by far less.
 */
const CLOCK_MARGIN_MS = 10 * 60_000;

/**
 * Whether a change at the time `ts` (ms) may touch a settled hour as some instance sees it: one whose clock
 * is up to CLOCK_MARGIN_MS ahead. Calls of the hour before the current one are not settled anywhere, so the
 * batches a bot sends as an hour turns, which carry the last seconds of the old hour, leave the settled
 * part of every long answer in place; before, they cleared it with every batch for the first minute or so.
 */
export function reachesSettledHours(ts: number, now: number): boolean {
  return ts < settledBefore(now + CLOCK_MARGIN_MS);
}

/** Where a range of whole hours [first, end) (ms) is cut: its settled hours are those before the answer. */
export function settledSplit(first: number, end: number, now: number): number {
  return Math.min(Math.max(settledBefore(now), first), end);
}

/**
 * Rows of the hours [from, to) (ms, whole hours) of a query grouped by hour, read in two parts: the
 * settled hours' rows from `history` under `key` (read once, kept until a change reaches back), the rest
 * afresh. Rows of different hours never merge, so the two parts side by side are the rows of the range.
 */
export async function hourRowsSplit<T>(
  history: TtlCache,
  key: string,
  range: { from: number; to: number; now: number },
  read: (from: string, to: string) => Promise<T[]>,
): Promise<T[]> {
  const split = settledSplit(range.from, range.to, range.now);
  const settled =
    split === range.from
      ? []
      : await history.get(`${key}:${range.from}:${split}`, () => read(hourKey(range.from), hourKey(split)));
  if (split === range.to) return settled;
  return [...settled, ...(await read(hourKey(split), hourKey(range.to)))];
}
