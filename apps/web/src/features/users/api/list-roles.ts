import type { Role } from '@lumi/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '@/lib/api-client';

/**
 * The roles offered in the user dialogs. The key is the one the roles feature uses for the same
 * endpoint, so both read one cache entry and a role change shows up in the dialogs at once.
 */
export const rolesKey = ['roles'] as const;

export function fetchRoles(signal?: AbortSignal) {
  return api.get<Role[]>('/roles', { signal });
}

export function roleOptionsQueryOptions() {
  return queryOptions({ queryKey: rolesKey, queryFn: ({ signal }) => fetchRoles(signal) });
}

/** Spec section 8: a roles load failure is only logged and the list stays empty. */
export function useRoleOptions(enabled: boolean): Role[] {
  const { data, error } = useQuery({ ...roleOptionsQueryOptions(), enabled });
  useEffect(() => {
    if (error) console.error('Failed to load roles', error);
  }, [error]);
  return data ?? [];
}
