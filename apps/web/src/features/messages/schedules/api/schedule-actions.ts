import type { Schedule } from '@lumi/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { SCHEDULES_PATH, scheduleKeys } from './schedule-keys';

/** POST /v1/messaging/schedules/{id}/pause or /resume. */
export function setScheduleEnabled({ id, enabled }: { id: number; enabled: boolean }) {
  return api.post<Schedule>(`${SCHEDULES_PATH}/${id}/${enabled ? 'resume' : 'pause'}`);
}

/** DELETE /v1/messaging/schedules/{id}?version=: the version shown, so an unseen edit is never deleted. */
export function deleteSchedule({ id, version }: { id: number; version: number }) {
  return api.delete<{ ok: true }>(`${SCHEDULES_PATH}/${id}`, { query: { version } });
}

export function useSetScheduleEnabled() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setScheduleEnabled,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: scheduleKeys.all }),
  });
}

export function useDeleteSchedule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteSchedule,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: scheduleKeys.all }),
  });
}
