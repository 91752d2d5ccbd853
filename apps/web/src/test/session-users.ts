import type { SessionUser } from '@lumi/contract';
import { useAuthStore } from '@/lib/auth-store';

/** The signed-in administrator of the component tests: the built-in admin role, every permission. */
export const adminUser: SessionUser = {
  id: 1,
  username: 'admin',
  email: 'admin@example.com',
  name: 'Administrator',
  role: 'admin',
  roles: [{ id: 1, name: 'admin', permissions: ['*'] }],
  pending_action: null,
};

/** Signs `user` in with an access token, as after a sign-in. */
export function signIn(user: SessionUser = adminUser) {
  useAuthStore.setState({ user, accessToken: 'token', isAuthenticated: true, isLoading: false });
}
