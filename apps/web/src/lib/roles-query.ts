import type { Role } from '@lumi/contract';
import { queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/**
 * GET /roles, shared by the roles feature (the roles list) and the users feature (the role checkboxes of
 * the user dialogs): one query key and one cache entry, so a role change shows up in both at once.
 */
export const rolesKey = ['roles'] as const;

/** The user list's key: a role change renames badges and changes what users may do. */
export const usersKey = ['users'] as const;

export function rolesQueryOptions() {
  return queryOptions({
    queryKey: rolesKey,
    queryFn: ({ signal }) => api.get<Role[]>('/roles', { signal }),
  });
}
