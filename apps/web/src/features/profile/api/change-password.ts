import type { ChangePasswordInput } from '@lumi/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** POST /auth/change-password; the server ends every other session of the user. */
export function changePassword(input: ChangePasswordInput): Promise<void> {
  return api.post<void>('/auth/change-password', input);
}

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}
