import type { ConfigItem, SessionUser } from '@lumi/contract';
import { useAuthStore } from '@/lib/auth-store';

/** A config item for unit tests; override what the test is about. */
export function configItem(overrides: Partial<ConfigItem> = {}): ConfigItem {
  return {
    id: 1,
    domain: 'moods',
    name: 'Cheerful',
    description: 'Sunny days',
    content: { tone: 'warm' },
    is_active: true,
    tags: ['happy'],
    priority: 3,
    version: 2,
    created_at: '2025-03-01T10:00:00.000Z',
    updated_at: '2025-03-02T10:00:00.000Z',
    updated_by: 'admin',
    ...overrides,
  };
}

/** Signs a user in whose one role grants exactly `permissions`. */
export function signInWith(permissions: string[], username = 'olga') {
  const user: SessionUser = {
    id: 7,
    username,
    email: `${username}@example.com`,
    name: 'Olga Operator',
    role: 'custom',
    roles: [{ id: 9, name: 'custom', permissions }],
    pending_action: null,
  };
  useAuthStore.setState({ user, accessToken: null, isAuthenticated: true, isLoading: false });
}
