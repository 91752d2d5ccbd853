import type { AuthSessionListResponse, PasswordResetRequest, RevokedSessionsResponse } from '@lumi/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { usersKeys } from './list-users';

export const userSessionsKey = (id: number) => [...usersKeys.all, id, 'sessions'] as const;

/** GET /users/{id}/sessions: a user's signed-in sessions, newest first. */
export function userSessionsOptions(id: number) {
  return queryOptions({
    queryKey: userSessionsKey(id),
    queryFn: ({ signal }) => api.get<AuthSessionListResponse>(`/users/${id}/sessions`, { signal }),
  });
}

export function useUserSessions(id: number) {
  return useQuery(userSessionsOptions(id));
}

/** POST /users/{id}/sessions/revoke: signs the user out everywhere at once. */
export function useRevokeUserSessions(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<RevokedSessionsResponse>(`/users/${id}/sessions/revoke`),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: userSessionsKey(id) }),
  });
}

/** POST /users/{id}/2fa/reset: for a lost authenticator; a role that requires it sends them to set it up again. */
export function useResetTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.post<{ ok: true }>(`/users/${id}/2fa/reset`),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: usersKeys.all }),
  });
}

/** POST /users/{id}/password-reset: a temporary password; their sessions end and they must change it. */
export function useSetTemporaryPassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: number; input: PasswordResetRequest }) =>
      api.post<{ ok: true }>(`/users/${id}/password-reset`, input),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: usersKeys.all }),
  });
}
