import { llmTopUsersSchema } from '@lumi/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useAutoRefreshInterval } from '../hooks/auto-refresh-context';
import { resolveTimeRange, timeRangeKey, type TimeRange } from '../lib/time-range';
import { getParsed } from './get-parsed';
import { metricsKeys } from './metrics-keys';

/** GET /metrics/llm/top-users?from=&to=: the users that cost most over the UTC days the range touches. */
export function fetchLlmTopUsers(range: TimeRange, signal?: AbortSignal) {
  return getParsed(llmTopUsersSchema, '/metrics/llm/top-users', {
    query: resolveTimeRange(range, new Date()),
    signal,
  });
}

export function llmTopUsersQueryOptions(range: TimeRange) {
  return queryOptions({
    queryKey: metricsKeys.llmTopUsers(timeRangeKey(range)),
    queryFn: ({ signal }) => fetchLlmTopUsers(range, signal),
  });
}

export function useLlmTopUsers(range: TimeRange) {
  return useQuery({ ...llmTopUsersQueryOptions(range), refetchInterval: useAutoRefreshInterval() });
}
