import type {
  LoginRequest,
  LoginResponse,
  SignInResponse,
  TwoFactorChallengeResponse,
  TwoFactorVerifyRequest,
} from '@lumi/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { useAuthStore } from '@/lib/auth-store';

/** POST /auth/login. A 401 here is a wrong password, not an expired session, so no refresh is tried. */
export function login(credentials: LoginRequest): Promise<SignInResponse> {
  return api.post<SignInResponse>('/auth/login', credentials, { skipRefresh: true });
}

/**
 * The sign-in asks for a second factor (docs/operators/security.md, "Two-factor sign-in"): no token yet, a
 * challenge for the next step.
 */
export function isChallenge(response: SignInResponse): response is TwoFactorChallengeResponse {
  return 'two_factor_required' in response;
}

/**
 * Signs in and stores the session (spec section 4: user, token, isAuthenticated); a user with two-factor
 * sign-in gets a challenge instead, and the session is stored once the second step completes it.
 */
export function useLogin() {
  return useMutation({
    mutationFn: login,
    onSuccess: (response) => {
      if (!isChallenge(response)) useAuthStore.getState().setSession(response.access_token, response.user);
    },
  });
}

/** POST /auth/2fa/verify: the challenge with a code or a recovery code; a 401 is a refusal, not a lost session. */
export function verifySecondFactor(input: TwoFactorVerifyRequest): Promise<LoginResponse> {
  return api.post<LoginResponse>('/auth/2fa/verify', input, { skipRefresh: true });
}

export function useVerifySecondFactor() {
  return useMutation({
    mutationFn: verifySecondFactor,
    onSuccess: (response) => useAuthStore.getState().setSession(response.access_token, response.user),
  });
}
