import { marketDataStatusSchema } from '@lumi/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getParsed } from './get-parsed';
import { metricsKeys } from './metrics-keys';

/** Spec section 9: market data is polled every 30 s. */
export const MARKET_DATA_POLL_MS = 30_000;

/** GET /metrics/market-data */
export function fetchMarketData(signal?: AbortSignal) {
  return getParsed(marketDataStatusSchema, '/metrics/market-data', { signal });
}

export function marketDataQueryOptions() {
  return queryOptions({
    queryKey: metricsKeys.marketData,
    queryFn: ({ signal }) => fetchMarketData(signal),
    refetchInterval: MARKET_DATA_POLL_MS,
  });
}

export function useMarketData() {
  return useQuery(marketDataQueryOptions());
}
