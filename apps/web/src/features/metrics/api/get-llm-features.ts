import { llmFeatureUsageSchema } from '@lumi/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useAutoRefreshInterval } from '../hooks/auto-refresh-context';
import { resolveTimeRange, timeRangeKey, type TimeRange } from '../lib/time-range';
import { getParsed } from './get-parsed';
import { metricsKeys } from './metrics-keys';

/** GET /metrics/llm/features?from=&to=: cost, tokens and requests by feature, highest cost first. */
export function fetchLlmFeatures(range: TimeRange, signal?: AbortSignal) {
  return getParsed(llmFeatureUsageSchema, '/metrics/llm/features', {
    query: resolveTimeRange(range, new Date()),
    signal,
  });
}

export function llmFeaturesQueryOptions(range: TimeRange) {
  return queryOptions({
    queryKey: metricsKeys.llmFeatures(timeRangeKey(range)),
    queryFn: ({ signal }) => fetchLlmFeatures(range, signal),
  });
}

export function useLlmFeatures(range: TimeRange) {
  return useQuery({ ...llmFeaturesQueryOptions(range), refetchInterval: useAutoRefreshInterval() });
}
