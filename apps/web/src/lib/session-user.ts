import type { SessionUser } from '@lumi/contract';
import { api } from './api-client';
import { useAuthStore } from './auth-store';

/**
 * GET /auth/me into the auth store: after the user did what they had to first (a new password, two-factor
 * set up), the store learns the pending action is gone and the guards let them on.
 */
export async function reloadSessionUser(): Promise<SessionUser> {
  const user = await api.get<SessionUser>('/auth/me');
  useAuthStore.getState().setUser(user);
  return user;
}
