import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { useInvalidateLimits } from './invalidate-limits';
import { LIMITS_PATH } from './limit-keys';

/** DELETE /limits/{id}: the limit goes at once; the calls it denied stay listed. */
export function deleteLimit(id: number) {
  return api.delete<unknown>(`${LIMITS_PATH}/${id}`);
}

export function useDeleteLimit() {
  return useMutation({ mutationFn: deleteLimit, onSuccess: useInvalidateLimits() });
}
