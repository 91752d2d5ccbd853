import type { Schedule, ScheduleInput } from '@lumi/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { SCHEDULES_PATH, scheduleKeys } from './schedule-keys';

/** POST /v1/messaging/schedules. */
export function createSchedule(input: ScheduleInput) {
  return api.post<Schedule>(SCHEDULES_PATH, input);
}

/** PUT /v1/messaging/schedules/{id}: `version` is the one the edit started from (409 when stale). */
export function updateSchedule({
  id,
  version,
  input,
}: {
  id: number;
  version: number;
  input: ScheduleInput;
}) {
  return api.put<Schedule>(`${SCHEDULES_PATH}/${id}`, { ...input, version });
}

/** Creates a schedule, or saves one when `edit` names it and the version the edit started from. */
export function useSaveSchedule(edit?: { id: number; version: number }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ScheduleInput) => (edit ? updateSchedule({ ...edit, input }) : createSchedule(input)),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: scheduleKeys.all }),
  });
}
