import type { Role } from '@lumi/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** Shared with the users feature's role checkboxes: one cache entry for GET /roles. */
export const rolesKey = ['roles'] as const;

/** Role changes rename badges and change what users may do, so the user list reloads too. */
export const usersKey = ['users'] as const;

/** GET /roles */
export function fetchRoles(signal?: AbortSignal) {
  return api.get<Role[]>('/roles', { signal });
}

export function rolesQueryOptions() {
  return queryOptions({ queryKey: rolesKey, queryFn: ({ signal }) => fetchRoles(signal) });
}

export function useRoles(enabled: boolean) {
  return useQuery({ ...rolesQueryOptions(), enabled });
}
