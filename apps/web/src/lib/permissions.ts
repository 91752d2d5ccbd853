import { hasPermission, type Permission } from '@lumi/contract';
import { useAuthStore } from './auth-store';

/** Spec section 6: while auth is loading every check fails; so does a user without a roles list. */
export function useHasPermission(permission: Permission): boolean {
  return useAuthStore((state) => !state.isLoading && hasPermission(state.user?.roles, permission));
}
