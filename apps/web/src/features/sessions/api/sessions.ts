import type { AuthSessionListResponse, RevokedSessionsResponse } from '@lumi/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const ownSessionsKey = ['auth-sessions'] as const;

/** GET /auth/sessions: the signed-in user's sessions, newest first, `current` for this one. */
export function listOwnSessions(signal?: AbortSignal): Promise<AuthSessionListResponse> {
  return api.get<AuthSessionListResponse>('/auth/sessions', { signal });
}

export const ownSessionsOptions = queryOptions({
  queryKey: ownSessionsKey,
  queryFn: ({ signal }) => listOwnSessions(signal),
});

export function useOwnSessions() {
  return useQuery(ownSessionsOptions);
}

/** DELETE /auth/sessions/{id}: that session's tokens stop working at once. */
export function useRevokeSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<{ ok: true }>(`/auth/sessions/${encodeURIComponent(id)}`),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: ownSessionsKey }),
  });
}

/** POST /auth/sessions/revoke-others: every session but this one. */
export function useRevokeOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<RevokedSessionsResponse>('/auth/sessions/revoke-others'),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: ownSessionsKey }),
  });
}
