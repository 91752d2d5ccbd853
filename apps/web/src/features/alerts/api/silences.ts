import type { Silence, SilenceInput, SilenceListResponse, SilenceUpdate } from '@lumi/contract';
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

/** PUT /alerts/silences/{id}: the silence replaced as a whole; `ends_at: 'now'` ends it now. */
export function updateSilence({ id, input }: { id: number; input: SilenceUpdate }) {
  return api.put<Silence>(`${SILENCES_PATH}/${id}`, input);
}

/** DELETE /alerts/silences/{id}: the silence goes, and stops muting at once if active. */
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

export function useUpdateSilence() {
  return useMutation({ mutationFn: updateSilence, onSuccess: useInvalidateAlerts() });
}

export function useDeleteSilence() {
  return useMutation({ mutationFn: deleteSilence, onSuccess: useInvalidateAlerts() });
}
