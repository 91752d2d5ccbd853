import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { useInvalidateLimits } from './invalidate-limits';
import { ACCESS_RULES_PATH } from './list-access-rules';

/** DELETE /limits/access-rules/{id}: the ban or allowlist entry stops deciding at once. */
export function deleteAccessRule(id: number) {
  return api.delete<unknown>(`${ACCESS_RULES_PATH}/${id}`);
}

export function useDeleteAccessRule() {
  return useMutation({ mutationFn: deleteAccessRule, onSuccess: useInvalidateLimits() });
}
