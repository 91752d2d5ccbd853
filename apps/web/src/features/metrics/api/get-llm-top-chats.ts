import { llmTopChatsSchema } from '@lumi/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useAutoRefreshInterval } from '../hooks/auto-refresh-context';
import { resolveTimeRange, timeRangeKey, type TimeRange } from '../lib/time-range';
import { getParsed } from './get-parsed';
import { metricsKeys } from './metrics-keys';

/** GET /metrics/llm/top-chats?from=&to=: the chats that cost most over the UTC days the range touches. */
export function fetchLlmTopChats(range: TimeRange, signal?: AbortSignal) {
  return getParsed(llmTopChatsSchema, '/metrics/llm/top-chats', {
    query: resolveTimeRange(range, new Date()),
    signal,
  });
}

export function llmTopChatsQueryOptions(range: TimeRange) {
  return queryOptions({
    queryKey: metricsKeys.llmTopChats(timeRangeKey(range)),
    queryFn: ({ signal }) => fetchLlmTopChats(range, signal),
  });
}

export function useLlmTopChats(range: TimeRange) {
  return useQuery({ ...llmTopChatsQueryOptions(range), refetchInterval: useAutoRefreshInterval() });
}
