import { modelPriceSchema } from '@lumi/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { getParsed } from './get-parsed';
import { metricsKeys } from './metrics-keys';
import { useAutoRefreshInterval } from '../hooks/auto-refresh-context';

/** GET /config/model-prices: USD per million tokens, for llm_calls reported without a cost. */
export function fetchModelPrices(signal?: AbortSignal) {
  return getParsed(z.array(modelPriceSchema), '/config/model-prices', { signal });
}

export function modelPricesQueryOptions() {
  return queryOptions({
    queryKey: metricsKeys.modelPrices,
    queryFn: ({ signal }) => fetchModelPrices(signal),
  });
}

export function useModelPrices() {
  return useQuery({ ...modelPricesQueryOptions(), refetchInterval: useAutoRefreshInterval() });
}
