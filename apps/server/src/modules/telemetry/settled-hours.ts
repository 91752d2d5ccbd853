import { floorHour, HOUR_MS } from '../../lib/hour-buckets.js';

// The dashboards' settled hours. A bot reports as things happen, so stored batches change the current hour
// and, for a while after it turns, the one before; the hours before those change only when a late event
// arrives, retention removes rollups or housekeeping folds them. Answers over long ranges keep the
// settled hours' part in a cache of its own (services.ts, `historyCache`), which only such changes clear,
// and read the recent hours afresh.

/** Hours before this (ms) are settled when it is `now`: all but the current hour and the one before it. */
export function settledBefore(now: number): number {
  return floorHour(now) - HOUR_MS;
}

/**
 * Whether a change at the time `ts` (ms) may touch a settled hour as some instance sees it: anything before
 * the current hour. The hour more than `settledBefore` leaves allows for instances whose clocks differ.
 */
export function reachesSettledHours(ts: number, now: number): boolean {
  return ts < floorHour(now);
}
