/** The time ranges the delivery log offers, as they sit in the URL (?range=24h). */
export const DELIVERY_RANGES = [
  { value: '1h', label: 'Last hour', hours: 1 },
  { value: '24h', label: 'Last 24 hours', hours: 24 },
  { value: '7d', label: 'Last 7 days', hours: 24 * 7 },
  { value: '30d', label: 'Last 30 days', hours: 24 * 30 },
] as const;

export type DeliveryRange = (typeof DELIVERY_RANGES)[number]['value'];

export function isDeliveryRange(value: string | null): value is DeliveryRange {
  return DELIVERY_RANGES.some((range) => range.value === value);
}

/** Where a range starts, counted back from `now` (ISO 8601); undefined for any time. */
export function rangeStart(range: DeliveryRange | null, now: number): string | undefined {
  const hours = DELIVERY_RANGES.find((candidate) => candidate.value === range)?.hours;
  return hours === undefined ? undefined : new Date(now - hours * 3_600_000).toISOString();
}
