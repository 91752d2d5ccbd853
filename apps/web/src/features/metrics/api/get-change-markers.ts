import { changeMarkersSchema } from '@lumi/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useAutoRefreshInterval } from '../hooks/auto-refresh-context';
import { resolveTimeRange, timeRangeKey, type TimeRange } from '../lib/time-range';
import { getParsed } from './get-parsed';
import { metricsKeys } from './metrics-keys';

/**
 * GET /metrics/changes?from=&to=: the configuration, template, budget and price changes of the range,
 * oldest first, drawn as markers on the usage and latency charts.
 */
export function fetchChangeMarkers(range: TimeRange, signal?: AbortSignal) {
  return getParsed(changeMarkersSchema, '/metrics/changes', {
    query: resolveTimeRange(range, new Date()),
    signal,
  });
}

export function changeMarkersQueryOptions(range: TimeRange) {
  return queryOptions({
    queryKey: metricsKeys.changeMarkers(timeRangeKey(range)),
    queryFn: ({ signal }) => fetchChangeMarkers(range, signal),
  });
}

export function useChangeMarkers(range: TimeRange) {
  return useQuery({ ...changeMarkersQueryOptions(range), refetchInterval: useAutoRefreshInterval() });
}
