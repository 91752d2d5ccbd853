import type { ScheduleListResponse } from '@lumi/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { SCHEDULES_PATH, scheduleKeys } from './schedule-keys';

/** A schedule's next run and last result move while the list is open. */
const REFRESH_MS = 30_000;

/** GET /v1/messaging/schedules: every schedule with its next run and last result. */
export function fetchSchedules(signal?: AbortSignal) {
  return api.get<ScheduleListResponse>(SCHEDULES_PATH, { signal });
}

export function schedulesQueryOptions() {
  return queryOptions({
    queryKey: scheduleKeys.list,
    queryFn: ({ signal }) => fetchSchedules(signal),
    refetchInterval: REFRESH_MS,
  });
}

export function useSchedules() {
  return useQuery(schedulesQueryOptions());
}
