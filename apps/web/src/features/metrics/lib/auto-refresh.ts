/**
 * How often the Metrics screen asks again (docs/operators/console-guide.md, "Metrics"), as it appears in the
 * URL (`refresh`).
 */
export const AUTO_REFRESH_OPTIONS = [
  { value: 'off', label: 'Off', ms: false },
  { value: '10s', label: 'Every 10 s', ms: 10_000 },
  { value: '30s', label: 'Every 30 s', ms: 30_000 },
  { value: '1m', label: 'Every 1 min', ms: 60_000 },
  { value: '5m', label: 'Every 5 min', ms: 300_000 },
] as const;
export type AutoRefresh = (typeof AUTO_REFRESH_OPTIONS)[number]['value'];
export const DEFAULT_AUTO_REFRESH: AutoRefresh = 'off';

/** The interval named in the URL, or off for anything else. */
export function parseAutoRefresh(value: string | null): AutoRefresh {
  return AUTO_REFRESH_OPTIONS.find((option) => option.value === value)?.value ?? DEFAULT_AUTO_REFRESH;
}

/** The interval in milliseconds, or false when off (TanStack Query's refetchInterval). */
export function autoRefreshMs(value: AutoRefresh): number | false {
  return AUTO_REFRESH_OPTIONS.find((option) => option.value === value)!.ms;
}

/** A panel that polls on its own (spec section 9) keeps its pace, unless auto-refresh asks more often. */
export function refetchIntervalWithin(autoRefresh: number | false, ownPollMs: number): number {
  return autoRefresh === false ? ownPollMs : Math.min(autoRefresh, ownPollMs);
}
