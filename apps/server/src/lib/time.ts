export function nowIso(): string {
  return new Date().toISOString();
}

export function isoAfter(ms: number, from = Date.now()): string {
  return new Date(from + ms).toISOString();
}

/** Milliseconds since the epoch; services that reason about "now" take one so tests can fix the time. */
export type Clock = () => number;
export const systemClock: Clock = () => Date.now();
