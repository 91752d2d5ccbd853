import type { Variable } from '@lumi/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '@/lib/api-client';
import { MESSAGING_PATH, messagingKeys } from '@/lib/messaging-keys';

/** GET /v1/messaging/variables: the variable catalogue, by category and name. */
export function fetchVariables(signal?: AbortSignal) {
  return api.get<Variable[]>(`${MESSAGING_PATH}/variables`, { signal });
}

export function variablesQueryOptions() {
  return queryOptions({
    queryKey: messagingKeys.variables,
    queryFn: ({ signal }) => fetchVariables(signal),
    staleTime: 5 * 60_000,
  });
}

/** Spec section 8: a variable load failure is logged; the query's state tells the caller the rest. */
export function useVariables() {
  const query = useQuery(variablesQueryOptions());
  useEffect(() => {
    if (query.error) console.error('Failed to load variables', query.error);
  }, [query.error]);
  return query;
}
