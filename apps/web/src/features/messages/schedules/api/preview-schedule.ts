import type { Recurrence, SchedulePreview } from '@lumi/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { SCHEDULES_PATH, scheduleKeys } from './schedule-keys';

/** POST /v1/messaging/schedules/preview: the next five run times of a recurrence in a time zone. */
export function previewSchedule(recurrence: Recurrence, timezone: string, signal?: AbortSignal) {
  return api.post<SchedulePreview>(`${SCHEDULES_PATH}/preview`, { recurrence, timezone }, { signal });
}

/** Asks only for a recurrence the form has checked; the last answer stays while the next one loads. */
export function useSchedulePreview(recurrence: Recurrence | null, timezone: string) {
  return useQuery({
    queryKey: recurrence ? scheduleKeys.preview(recurrence, timezone) : scheduleKeys.all,
    queryFn: ({ signal }) => previewSchedule(recurrence!, timezone, signal),
    enabled: recurrence !== null,
    placeholderData: keepPreviousData,
    retry: false,
  });
}
