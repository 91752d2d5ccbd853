import type { TokenBudget, TokenBudgetInput } from '@lumi/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { metricsKeys } from './metrics-keys';
import { tokenBudgetPath } from './token-budget-path';

/** PUT /config/token-budgets/{provider} */
export function updateTokenBudget({ provider, input }: { provider: string; input: TokenBudgetInput }) {
  return api.put<TokenBudget>(tokenBudgetPath(provider), input);
}

export function useUpdateTokenBudget() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateTokenBudget,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: metricsKeys.tokenBudgets }),
  });
}
