import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { useAuthStore } from '@/lib/auth-store';

/** POST /auth/logout: revokes the session on the server and clears the refresh cookie. */
export function logout(): Promise<void> {
  return api.post<void>('/auth/logout', undefined, { skipRefresh: true });
}

/**
 * Signs out. A failure of the server call is only logged and local state is cleared anyway (spec section
 * 4). Clearing the store is what sends the visitor to /login: the protected routes redirect there, so
 * there is exactly one navigation.
 */
export function useSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: logout,
    onError: (error) => console.warn('Sign-out request failed; signing out locally', error),
    onSettled: () => {
      useAuthStore.getState().clear();
      queryClient.clear();
    },
  });
}
