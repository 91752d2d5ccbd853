import type { TokenBudget, TokenBudgetInput } from '@lumi/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { metricsKeys } from './metrics-keys';
import { tokenBudgetPath } from './token-budget-path';

/** POST /config/token-budgets/{provider} */
export function createTokenBudget({ provider, input }: { provider: string; input: TokenBudgetInput }) {
  return api.post<TokenBudget>(tokenBudgetPath(provider), input);
}

export function useCreateTokenBudget() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createTokenBudget,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: metricsKeys.tokenBudgets }),
  });
}
