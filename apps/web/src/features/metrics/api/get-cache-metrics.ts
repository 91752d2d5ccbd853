import { cacheMetricsSchema } from '@lumi/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getParsed } from './get-parsed';
import { metricsKeys } from './metrics-keys';

/** Spec section 9: cache metrics are polled every 60 s. */
export const CACHE_POLL_MS = 60_000;

/** GET /metrics/cache */
export function fetchCacheMetrics(signal?: AbortSignal) {
  return getParsed(cacheMetricsSchema, '/metrics/cache', { signal });
}

export function cacheMetricsQueryOptions() {
  return queryOptions({
    queryKey: metricsKeys.cache,
    queryFn: ({ signal }) => fetchCacheMetrics(signal),
    refetchInterval: CACHE_POLL_MS,
  });
}

export function useCacheMetrics() {
  return useQuery(cacheMetricsQueryOptions());
}
