import type { DeliveryListResponse } from '@lumi/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { SCHEDULES_PATH, scheduleKeys } from './schedule-keys';

/** GET /v1/messaging/schedules/{id}/runs: the schedule's deliveries, newest first. */
export function fetchScheduleRuns(id: number, signal?: AbortSignal) {
  return api.get<DeliveryListResponse>(`${SCHEDULES_PATH}/${id}/runs`, { signal });
}

export function useScheduleRuns(id: number) {
  return useQuery({
    queryKey: scheduleKeys.runs(id),
    queryFn: ({ signal }) => fetchScheduleRuns(id, signal),
  });
}
