import type { Profile } from '@lumi/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const profileQueryKey = ['profile'] as const;

/** GET /auth/profile: the signed-in user's name and email. */
export function getProfile(signal?: AbortSignal): Promise<Profile> {
  return api.get<Profile>('/auth/profile', { signal });
}

export const profileQueryOptions = queryOptions({
  queryKey: profileQueryKey,
  queryFn: ({ signal }) => getProfile(signal),
});

export function useProfile() {
  return useQuery(profileQueryOptions);
}
