import { llmErrorsSchema } from '@lumi/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useAutoRefreshInterval } from '../hooks/auto-refresh-context';
import { resolveTimeRange, timeRangeKey, type TimeRange } from '../lib/time-range';
import { getParsed } from './get-parsed';
import { metricsKeys } from './metrics-keys';

/** GET /metrics/llm/errors?from=&to=: error rate by provider and model, failed calls by error type. */
export function fetchLlmErrors(range: TimeRange, signal?: AbortSignal) {
  return getParsed(llmErrorsSchema, '/metrics/llm/errors', {
    query: resolveTimeRange(range, new Date()),
    signal,
  });
}

export function llmErrorsQueryOptions(range: TimeRange) {
  return queryOptions({
    queryKey: metricsKeys.llmErrors(timeRangeKey(range)),
    queryFn: ({ signal }) => fetchLlmErrors(range, signal),
  });
}

export function useLlmErrors(range: TimeRange) {
  return useQuery({ ...llmErrorsQueryOptions(range), refetchInterval: useAutoRefreshInterval() });
}
