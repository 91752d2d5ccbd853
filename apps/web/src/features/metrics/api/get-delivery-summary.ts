import { deliverySummarySchema } from '@lumi/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getParsed } from './get-parsed';
import { metricsKeys } from './metrics-keys';

/** The Overview's deliveries card follows the sender as often as the bot health card follows the bot. */
export const DELIVERY_SUMMARY_POLL_MS = 30_000;

/** GET /v1/messaging/deliveries/summary: deliveries created in the last 24 hours, by status. */
export function fetchDeliverySummary(signal?: AbortSignal) {
  return getParsed(deliverySummarySchema, '/v1/messaging/deliveries/summary', { signal });
}

export function deliverySummaryQueryOptions() {
  return queryOptions({
    queryKey: metricsKeys.deliverySummary,
    queryFn: ({ signal }) => fetchDeliverySummary(signal),
    refetchInterval: DELIVERY_SUMMARY_POLL_MS,
  });
}

export function useDeliverySummary() {
  return useQuery(deliverySummaryQueryOptions());
}
