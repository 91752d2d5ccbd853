import type {
  TwoFactorDisableRequest,
  TwoFactorEnableResponse,
  TwoFactorSetupResponse,
  TwoFactorStatus,
} from '@lumi/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const twoFactorKey = ['two-factor'] as const;

/** GET /auth/2fa: whether two-factor sign-in is on, since when, recovery codes left, required by a role. */
export function getTwoFactorStatus(signal?: AbortSignal): Promise<TwoFactorStatus> {
  return api.get<TwoFactorStatus>('/auth/2fa', { signal });
}

export const twoFactorStatusOptions = queryOptions({
  queryKey: twoFactorKey,
  queryFn: ({ signal }) => getTwoFactorStatus(signal),
});

export function useTwoFactorStatus() {
  return useQuery(twoFactorStatusOptions);
}

/** POST /auth/2fa/setup: a new pending secret (replacing one started before). */
export function useSetupTwoFactor() {
  return useMutation({
    mutationFn: () => api.post<TwoFactorSetupResponse>('/auth/2fa/setup'),
  });
}

/** POST /auth/2fa/enable: the first code turns it on and answers the recovery codes, shown once. */
export function useEnableTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => api.post<TwoFactorEnableResponse>('/auth/2fa/enable', { code }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: twoFactorKey }),
  });
}

/** POST /auth/2fa/disable with the password and a code or a recovery code. */
export function useDisableTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: TwoFactorDisableRequest) => api.post<{ ok: true }>('/auth/2fa/disable', input),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: twoFactorKey }),
  });
}
