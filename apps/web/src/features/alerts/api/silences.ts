import type { Silence, SilenceInput, SilenceListResponse } from '@lumi/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { ALERTS_PATH, ALERTS_POLL_MS, alertKeys } from './alert-keys';

const SILENCES_PATH = `${ALERTS_PATH}/silences`;

/** GET /alerts/silences: every silence with its status now. */
export function fetchSilences(signal?: AbortSignal) {
  return api.get<SilenceListResponse>(SILENCES_PATH, { signal });
}

export function useSilences() {
  return useQuery({
    queryKey: alertKeys.silences,
    queryFn: ({ signal }) => fetchSilences(signal),
    refetchInterval: ALERTS_POLL_MS,
  });
}

export function createSilence(input: SilenceInput) {
  return api.post<Silence>(SILENCES_PATH, input);
}

/** DELETE /alerts/silences/{id}: an active silence ends at once. */
export function deleteSilence(id: number) {
  return api.delete<unknown>(`${SILENCES_PATH}/${id}`);
}

function useInvalidateAlerts() {
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ queryKey: alertKeys.all });
}

export function useCreateSilence() {
  return useMutation({ mutationFn: createSilence, onSuccess: useInvalidateAlerts() });
}

export function useDeleteSilence() {
  return useMutation({ mutationFn: deleteSilence, onSuccess: useInvalidateAlerts() });
}
