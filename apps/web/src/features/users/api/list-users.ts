import { USER_PAGE_SIZE, type UserListResponse } from '@lumi/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { usersKey } from '@/lib/roles-query';

export interface UserListParams {
  page: number;
  search: string;
}

// The root key is shared with the roles feature, which refreshes the user list after a role change.
export const usersKeys = {
  all: usersKey,
  list: (params: UserListParams) => [...usersKey, 'list', params] as const,
};

/** GET /users: one page of users; an empty search is left out of the query (spec section 7). */
export function fetchUsers({ page, search }: UserListParams, signal?: AbortSignal) {
  return api.get<UserListResponse>('/users', {
    query: { page, limit: USER_PAGE_SIZE, search: search || undefined },
    signal,
  });
}

export function usersQueryOptions(params: UserListParams) {
  return queryOptions({
    queryKey: usersKeys.list(params),
    queryFn: ({ signal }) => fetchUsers(params, signal),
    // Keep the current page on screen while the next one loads, instead of flashing skeletons.
    placeholderData: keepPreviousData,
  });
}

export function useUsers(params: UserListParams, enabled: boolean) {
  return useQuery({ ...usersQueryOptions(params), enabled });
}
