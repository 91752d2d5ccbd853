import { changeMarkersSchema } from '@lumi/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useAutoRefreshInterval } from '../hooks/auto-refresh-context';
import { DEFAULT_TIME_RANGE, resolveTimeRange, timeRangeKey, type TimeRange } from '../lib/time-range';
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

/** The changes of a range; none asked for while the range is not known yet (undefined). */
export function useChangeMarkers(range: TimeRange | undefined) {
  return useQuery({
    ...changeMarkersQueryOptions(range ?? DEFAULT_TIME_RANGE),
    enabled: range !== undefined,
    refetchInterval: useAutoRefreshInterval(),
  });
}
