import type { ApiKey } from '@lumi/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const apiKeysKey = ['api-keys'] as const;

/** GET /admin/api-keys: newest first, revoked ones included; never the keys themselves. */
export function fetchApiKeys(signal?: AbortSignal) {
  return api.get<ApiKey[]>('/admin/api-keys', { signal });
}

export function apiKeysQueryOptions() {
  return queryOptions({ queryKey: apiKeysKey, queryFn: ({ signal }) => fetchApiKeys(signal) });
}

export function useApiKeys(enabled: boolean) {
  return useQuery({ ...apiKeysQueryOptions(), enabled });
}
