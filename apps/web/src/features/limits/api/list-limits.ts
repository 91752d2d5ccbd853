import type { LimitListResponse } from '@lumi/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { LIMITS_PATH, LIMITS_POLL_MS, limitKeys } from './limit-keys';

/** GET /limits: every limit with its usage now (for each chat or user, the five nearest it) and its denials. */
export function fetchLimits(signal?: AbortSignal) {
  return api.get<LimitListResponse>(LIMITS_PATH, { signal });
}

export function limitsQueryOptions() {
  return queryOptions({
    queryKey: limitKeys.list,
    queryFn: ({ signal }) => fetchLimits(signal),
    refetchInterval: LIMITS_POLL_MS,
  });
}

export function useLimits() {
  return useQuery(limitsQueryOptions());
}
