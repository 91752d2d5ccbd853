import type { LoginRequest, LoginResponse } from '@lumi/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { useAuthStore } from '@/lib/auth-store';

/** POST /auth/login. A 401 here is a wrong password, not an expired session, so no refresh is tried. */
export function login(credentials: LoginRequest): Promise<LoginResponse> {
  return api.post<LoginResponse>('/auth/login', credentials, { skipRefresh: true });
}

/** Signs in and stores the session (spec section 4: user, token, isAuthenticated). */
export function useLogin() {
  return useMutation({
    mutationFn: login,
    onSuccess: (response) => useAuthStore.getState().setSession(response.access_token, response.user),
  });
}
