import type { Limit, LimitValues } from '@lumi/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { useInvalidateLimits } from './invalidate-limits';
import { LIMITS_PATH } from './limit-keys';

/**
 * POST /limits, or PUT /limits/{id} (the limit replaced as a whole) when `id` names the limit to save; 409
 * when the subject has a limit of that metric and window already.
 */
export function saveLimit({ id, input }: { id?: number; input: LimitValues }) {
  return id === undefined
    ? api.post<Limit>(LIMITS_PATH, input)
    : api.put<Limit>(`${LIMITS_PATH}/${id}`, input);
}

export function useSaveLimit() {
  return useMutation({ mutationFn: saveLimit, onSuccess: useInvalidateLimits() });
}
