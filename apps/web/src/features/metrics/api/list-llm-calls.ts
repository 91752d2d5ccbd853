import { llmCallsSchema, type LlmCalls } from '@lumi/contract';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { downloadFile, type DownloadedFile } from '@/lib/download';
import { useAutoRefreshInterval } from '../hooks/auto-refresh-context';
import { callFiltersKey, type CallFilters } from '../lib/call-filters';
import { resolveTimeRange, timeRangeKey, type TimeRange } from '../lib/time-range';
import { getParsed } from './get-parsed';
import { metricsKeys } from './metrics-keys';

/** GET /metrics/llm/calls: the calls of the range matching the filters, newest first, a page at a time. */
export function fetchLlmCalls(
  range: TimeRange,
  filters: CallFilters,
  cursor: string | null,
  signal?: AbortSignal,
) {
  return getParsed(llmCallsSchema, '/metrics/llm/calls', {
    query: { ...resolveTimeRange(range, new Date()), ...filters, ...(cursor ? { cursor } : {}) },
    signal,
  });
}

export function llmCallsQueryOptions(range: TimeRange, filters: CallFilters) {
  return infiniteQueryOptions({
    queryKey: metricsKeys.llmCalls(timeRangeKey(range), callFiltersKey(filters)),
    queryFn: ({ pageParam, signal }) => fetchLlmCalls(range, filters, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last: LlmCalls) => last.next_cursor,
  });
}

export function useLlmCalls(range: TimeRange, filters: CallFilters) {
  return useInfiniteQuery({
    ...llmCallsQueryOptions(range, filters),
    refetchInterval: useAutoRefreshInterval(),
  });
}

/** GET /metrics/llm/calls.csv: the matching calls as a CSV file (at most 100,000, the newest). */
export function downloadLlmCalls(
  range: TimeRange,
  filters: CallFilters,
  options: { signal?: AbortSignal; onProgress?: (bytes: number) => void } = {},
): Promise<DownloadedFile> {
  return downloadFile('/metrics/llm/calls.csv', {
    query: { ...resolveTimeRange(range, new Date()), ...filters },
    type: 'text/csv;charset=utf-8',
    fallbackName: 'lumi-calls.csv',
    ...options,
  });
}
