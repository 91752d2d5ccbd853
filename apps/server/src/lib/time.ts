/**
 * Milliseconds since the epoch. Every service reads "now" from the one clock app.ts gives it, so tests can
 * fix or move the time.
 */
export type Clock = () => number;
export const systemClock: Clock = () => Date.now();

/** A time as the database stores it: ISO 8601 UTC text. */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}

/** `ms` after `from` (before it, when negative), as the database stores times. */
export function isoAfter(ms: number, from: number): string {
  return isoTime(from + ms);
}
