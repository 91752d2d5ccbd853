/**
 * Hourly buckets of the telemetry rollups, and the minute buckets of their minute twins. A bucket is named by
 * its start as ISO 8601 UTC text (`2026-11-22T09:00:00.000Z`), the same fixed-width form as every other
 * timestamp in the database.
 */
export const MINUTE_MS = 60 * 1000;
export const HOUR_MS = 3600 * 1000;
export const DAY_MS = 24 * HOUR_MS;

/** The minute bucket holding `ms`, named by its start like the hourly ones: `2026-11-22T09:41:00.000Z`. */
export function minuteKey(ms: number): string {
  return new Date(Math.floor(ms / MINUTE_MS) * MINUTE_MS).toISOString();
}

export function floorHour(ms: number): number {
  return Math.floor(ms / HOUR_MS) * HOUR_MS;
}

export function hourKey(ms: number): string {
  return new Date(floorHour(ms)).toISOString();
}

/** The start of a window of `hours` whole hours that ends with the hour holding `now`. */
export function windowStart(now: number, hours: number): number {
  return floorHour(now) - (hours - 1) * HOUR_MS;
}

/** The bucket names of that window, oldest first. */
export function hourSeries(now: number, hours: number): string[] {
  const first = windowStart(now, hours);
  return Array.from({ length: hours }, (_, i) => new Date(first + i * HOUR_MS).toISOString());
}
