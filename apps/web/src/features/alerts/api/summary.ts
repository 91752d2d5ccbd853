import { alertSummarySchema } from '@lumi/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { ALERTS_PATH, ALERTS_POLL_MS, alertKeys } from './alert-keys';

/** GET /alerts/summary: the firing rules, critical first, for the Overview banner. */
export async function fetchAlertSummary(signal?: AbortSignal) {
  return alertSummarySchema.parse(await api.get<unknown>(`${ALERTS_PATH}/summary`, { signal }));
}

export function alertSummaryQueryOptions() {
  return queryOptions({
    queryKey: alertKeys.summary,
    queryFn: ({ signal }) => fetchAlertSummary(signal),
    refetchInterval: ALERTS_POLL_MS,
  });
}

export function useAlertSummary(enabled: boolean) {
  return useQuery({ ...alertSummaryQueryOptions(), enabled });
}
