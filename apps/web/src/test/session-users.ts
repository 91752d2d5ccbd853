import type { SessionUser } from '@lumi/contract';

/** The signed-in administrator of the component tests: the built-in admin role, every permission. */
export const adminUser: SessionUser = {
  id: 1,
  username: 'admin',
  email: 'admin@example.com',
  name: 'Administrator',
  role: 'admin',
  roles: [{ id: 1, name: 'admin', permissions: ['*'] }],
};
