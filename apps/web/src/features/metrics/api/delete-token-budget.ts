import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { metricsKeys } from './metrics-keys';
import { tokenBudgetPath } from './token-budget-path';

/** DELETE /config/token-budgets/{provider} */
export function deleteTokenBudget(provider: string) {
  return api.delete<{ ok: true }>(tokenBudgetPath(provider));
}

export function useDeleteTokenBudget() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteTokenBudget,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: metricsKeys.tokenBudgets }),
  });
}
