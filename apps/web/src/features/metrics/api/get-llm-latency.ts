import { llmLatencySchema } from '@lumi/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useAutoRefreshInterval } from '../hooks/auto-refresh-context';
import { rangeInterval, resolveTimeRange, timeRangeKey, type TimeRange } from '../lib/time-range';
import { getParsed } from './get-parsed';
import { metricsKeys } from './metrics-keys';

/** GET /metrics/llm/latency?from=&to=&interval=: hourly up to 7 days, daily beyond. */
export function fetchLlmLatency(range: TimeRange, signal?: AbortSignal) {
  const { from, to } = resolveTimeRange(range, new Date());
  return getParsed(llmLatencySchema, '/metrics/llm/latency', {
    query: { from, to, interval: rangeInterval(from, to) },
    signal,
  });
}

export function llmLatencyQueryOptions(range: TimeRange) {
  return queryOptions({
    queryKey: metricsKeys.llmLatency(timeRangeKey(range)),
    queryFn: ({ signal }) => fetchLlmLatency(range, signal),
  });
}

export function useLlmLatency(range: TimeRange) {
  return useQuery({ ...llmLatencyQueryOptions(range), refetchInterval: useAutoRefreshInterval() });
}
