import { tokenBudgetSchema } from '@lumi/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { getParsed } from './get-parsed';
import { metricsKeys } from './metrics-keys';
import { useAutoRefreshInterval } from '../hooks/auto-refresh-context';

/** GET /config/token-budgets: each budget with today's usage. */
export function fetchTokenBudgets(signal?: AbortSignal) {
  return getParsed(z.array(tokenBudgetSchema), '/config/token-budgets', { signal });
}

export function tokenBudgetsQueryOptions() {
  return queryOptions({
    queryKey: metricsKeys.tokenBudgets,
    queryFn: ({ signal }) => fetchTokenBudgets(signal),
  });
}

export function useTokenBudgets() {
  return useQuery({ ...tokenBudgetsQueryOptions(), refetchInterval: useAutoRefreshInterval() });
}
