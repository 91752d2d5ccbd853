import { MESSAGES, type User, type UserListResponse } from '@lumi/contract';
import { describe, expect, it, vi } from 'vitest';
import { PasswordHasher } from '../src/lib/password.js';
import { ADMIN, dialects, expectError, useTestApp, type Session } from './helper.js';

describe.each(dialects)('users on %s', (dialect) => {
  const t = useTestApp(dialect);

  const list = async (session: Session, query = '') => {
    const res = await t.app.inject({ method: 'GET', url: `/api/users${query}`, headers: session.auth });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<UserListResponse>();
  };
  const createUser = (session: Session, payload: object) =>
    t.app.inject({ method: 'POST', url: '/api/users', headers: session.auth, payload });
  const updateUser = (session: Session, id: number, payload: object) =>
    t.app.inject({ method: 'PUT', url: `/api/users/${id}`, headers: session.auth, payload });
  const deleteUser = (session: Session, id: number) =>
    t.app.inject({ method: 'DELETE', url: `/api/users/${id}`, headers: session.auth });
  const me = (session: Session) =>
    t.app.inject({ method: 'GET', url: '/api/auth/me', headers: session.auth });

  /** A signed-in user who may manage users but is not an admin, to test the rules about admins. */
  const signInWithRole = async (name: string, permissions: string[]) => {
    const admin = await t.loginAdmin();
    const role = await t.app.inject({
      method: 'POST',
      url: '/api/roles',
      headers: admin.auth,
      payload: { name, permissions },
    });
    expect(role.statusCode, role.body).toBe(201);
    return t.signInAs([name]);
  };
  const signInManager = () => signInWithRole('manager', ['users:read', 'users:write']);
  /** Holds every permission without the admin role, so only the last-admin rule stands in the way. */
  const signInSuperuser = () => signInWithRole('superuser', ['*']);

  const validUser = {
    username: 'new-user',
    email: 'new.user@example.test',
    name: 'New User',
    password: 'Fresh-password-42',
  };

  describe('GET /api/users', () => {
    it('lists users with their roles, status and last sign-in', async () => {
      const admin = await t.loginAdmin();
      const viewer = await t.createUser({ roles: ['viewer'], username: 'zed-viewer' });
      const body = await list(admin);
      expect(body).toEqual({ users: expect.any(Array), total: 2, page: 1, pages: 1 });
      expect(body.users).toEqual([
        {
          id: t.adminId,
          username: 'admin',
          email: 'admin@localhost.localdomain',
          name: 'Administrator',
          roles: [{ id: t.roleIds.admin, name: 'admin' }],
          is_active: true,
          two_factor_enabled: false,
          password_change_required: false,
          last_login: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
          created_at: expect.any(String),
        },
        {
          id: viewer.id,
          username: 'zed-viewer',
          email: viewer.email,
          name: viewer.name,
          roles: [{ id: t.roleIds.viewer, name: 'viewer' }],
          is_active: true,
          two_factor_enabled: false,
          password_change_required: false,
          last_login: null,
          created_at: expect.any(String),
        },
      ]);
    });

    it('pages through the users, 20 at a time by default', async () => {
      for (let i = 0; i < 24; i += 1) {
        await t.createUser({ roles: ['viewer'], username: `member-${String(i).padStart(2, '0')}` });
      }
      const admin = await t.loginAdmin();
      const first = await list(admin);
      expect(first).toMatchObject({ total: 25, page: 1, pages: 2 });
      expect(first.users).toHaveLength(20);

      const pages = await Promise.all([1, 2, 3].map((page) => list(admin, `?limit=10&page=${page}`)));
      expect(pages.map((p) => p.users.length)).toEqual([10, 10, 5]);
      expect(pages.every((p) => p.total === 25 && p.pages === 3)).toBe(true);
      expect(pages.map((p) => p.page)).toEqual([1, 2, 3]);
      const ids = pages.flatMap((p) => p.users.map((u) => u.id));
      expect(new Set(ids).size).toBe(25);

      const beyond = await list(admin, '?limit=10&page=4');
      expect(beyond).toMatchObject({ users: [], total: 25, page: 4, pages: 3 });
      expect((await list(admin, '?limit=100')).users).toHaveLength(25);
    });

    it.each(['limit=101', 'limit=0', 'page=0', 'limit=ten'])('refuses %s with 422', async (query) => {
      const admin = await t.loginAdmin();
      const res = await t.app.inject({ method: 'GET', url: `/api/users?${query}`, headers: admin.auth });
      const body = expectError(res, 422, 'validation_failed');
      expect(body.errors?.[0]?.path).toBe(query.split('=')[0]);
    });

    it('searches username, email and name without regard to case', async () => {
      const alice = await t.createUser({
        roles: ['viewer'],
        username: 'asmith',
        email: 'alice@wonder.example',
        name: 'Alice Smith',
      });
      const bob = await t.createUser({
        roles: ['viewer'],
        username: 'bjones',
        email: 'rj@corp.example',
        name: 'Robert Jones',
      });
      const admin = await t.loginAdmin();
      const found = async (search: string) =>
        (await list(admin, `?search=${encodeURIComponent(search)}`)).users.map((u) => u.id);

      expect(await found('ASMITH')).toEqual([alice.id]);
      expect(await found('WONDER.example')).toEqual([alice.id]);
      expect(await found('alice smith')).toEqual([alice.id]);
      expect(await found('jOnEs')).toEqual([bob.id]);
      expect(await found('CORP')).toEqual([bob.id]);
      expect(await found('.example')).toEqual([alice.id, bob.id]);
      const none = await list(admin, '?search=nobody-matches');
      expect(none).toEqual({ users: [], total: 0, page: 1, pages: 1 });
      const counted = await list(admin, '?search=example&limit=1');
      expect(counted).toMatchObject({ total: 2, pages: 2 });
    });

    it('treats % and _ in a search as plain characters', async () => {
      const underscore = await t.createUser({ roles: ['viewer'], username: 'a_b', name: 'Under Score' });
      await t.createUser({ roles: ['viewer'], username: 'axb', name: 'Plain Name' });
      const percent = await t.createUser({ roles: ['viewer'], username: 'percent', name: 'Half 50% Off' });
      await t.createUser({ roles: ['viewer'], username: 'fifty', name: 'Half 500 Off' });
      const admin = await t.loginAdmin();
      const found = async (search: string) =>
        (await list(admin, `?search=${encodeURIComponent(search)}`)).users.map((u) => u.id);
      expect(await found('a_b')).toEqual([underscore.id]);
      expect(await found('_')).toEqual([underscore.id]);
      expect(await found('50%')).toEqual([percent.id]);
      expect(await found('%')).toEqual([percent.id]);
      expect(await found('\\')).toEqual([]);
    });
  });

  describe('POST /api/users', () => {
    it('creates a user who can then sign in', async () => {
      const admin = await t.loginAdmin();
      const res = await createUser(admin, { ...validUser, roles: [t.roleIds.operator, t.roleIds.viewer] });
      expect(res.statusCode, res.body).toBe(201);
      const created = res.json<User>();
      expect(created).toEqual({
        id: expect.any(Number),
        username: 'new-user',
        email: 'new.user@example.test',
        name: 'New User',
        roles: [
          { id: t.roleIds.operator, name: 'operator' },
          { id: t.roleIds.viewer, name: 'viewer' },
        ],
        is_active: true,
        two_factor_enabled: false,
        password_change_required: false,
        last_login: null,
        created_at: expect.any(String),
      });
      // Neither the password nor its hash (`scrypt$…`) leaks; `password_change_required` is only a flag.
      expect(JSON.stringify(created)).not.toMatch(/password_hash|scrypt|"password"|hash"/i);
      expect(JSON.stringify(created)).not.toContain(validUser.password);
      const fetched = await t.app.inject({
        method: 'GET',
        url: `/api/users/${created.id}`,
        headers: admin.auth,
      });
      expect(fetched.json()).toEqual(created);
      const session = await t.login('new-user', validUser.password);
      expect(session.body.user.roles.map((r) => r.name)).toEqual(['operator', 'viewer']);
    });

    it.each([
      ['username', { username: undefined }, MESSAGES.usernameRequired],
      ['username', { username: '' }, MESSAGES.usernameRequired],
      ['username', { username: '   ' }, MESSAGES.usernameRequired],
      ['username', { username: 'ab' }, MESSAGES.usernameMin],
      ['email', { email: undefined }, MESSAGES.emailRequired],
      ['email', { email: '' }, MESSAGES.emailRequired],
      ['email', { email: 'not-an-email' }, MESSAGES.emailInvalid],
      ['name', { name: undefined }, MESSAGES.nameRequired],
      ['name', { name: ' ' }, MESSAGES.nameRequired],
      ['password', { password: undefined }, MESSAGES.passwordRequired],
      ['password', { password: '' }, MESSAGES.passwordRequired],
      ['password', { password: 'Short-1' }, MESSAGES.passwordMin],
      ['roles', { roles: [] }, MESSAGES.rolesRequired],
      ['roles', { roles: undefined }, MESSAGES.rolesRequired],
    ])('answers 422 on %s %o', async (path, change, message) => {
      const admin = await t.loginAdmin();
      const res = await createUser(admin, { ...validUser, roles: [t.roleIds.viewer], ...change });
      const body = expectError(res, 422, 'validation_failed');
      expect(Object.keys(body).sort()).toEqual(['code', 'detail', 'errors', 'request_id']);
      expect(body.errors).toEqual([{ path, message }]);
      expect(body.detail).toContain(message);
      expect((await list(admin)).total).toBe(1);
    });

    it('reports every invalid field at once, with the messages of the description', async () => {
      const admin = await t.loginAdmin();
      const body = expectError(await createUser(admin, {}), 422, 'validation_failed');
      expect(body.errors).toEqual(
        expect.arrayContaining([
          { path: 'username', message: 'Username is required' },
          { path: 'email', message: 'Email is required' },
          { path: 'name', message: 'Name is required' },
          { path: 'password', message: 'Password is required' },
          { path: 'roles', message: 'At least one role is required' },
        ]),
      );
      expect(body.errors).toHaveLength(5);
    });

    it('refuses a common password and an unknown role', async () => {
      const admin = await t.loginAdmin();
      const common = expectError(
        await createUser(admin, { ...validUser, password: 'password123', roles: [t.roleIds.viewer] }),
        422,
      );
      expect(common.errors).toEqual([{ path: 'password', message: MESSAGES.passwordCommon }]);
      const unknownRole = expectError(await createUser(admin, { ...validUser, roles: [9999] }), 422);
      expect(unknownRole.errors?.[0]?.path).toBe('roles');
    });

    it('refuses a username or email that is taken, whatever the case', async () => {
      const admin = await t.loginAdmin();
      const first = await createUser(admin, { ...validUser, roles: [t.roleIds.viewer] });
      expect(first.statusCode).toBe(201);
      const sameName = await createUser(admin, {
        ...validUser,
        username: 'NEW-USER',
        email: 'other@example.test',
        roles: [t.roleIds.viewer],
      });
      expect(expectError(sameName, 409, 'conflict').detail).toMatch(/username/i);
      const sameEmail = await createUser(admin, {
        ...validUser,
        username: 'another-user',
        email: 'New.User@Example.test',
        roles: [t.roleIds.viewer],
      });
      expect(expectError(sameEmail, 409, 'conflict').detail).toMatch(/email/i);
      expect((await list(admin)).total).toBe(2);
    });

    it('answers a taken username before hashing the password', async () => {
      const admin = await t.loginAdmin();
      expect((await createUser(admin, { ...validUser, roles: [t.roleIds.viewer] })).statusCode).toBe(201);
      const hash = vi.spyOn(PasswordHasher.prototype, 'hash');
      try {
        const taken = await createUser(admin, {
          ...validUser,
          email: 'x@example.test',
          roles: [t.roleIds.viewer],
        });
        expectError(taken, 409, 'conflict');
        expect(hash).not.toHaveBeenCalled();
      } finally {
        hash.mockRestore();
      }
    });
  });

  describe('PUT /api/users/:id', () => {
    it('changes email, name, roles and the active state', async () => {
      const user = await t.createUser({ roles: ['viewer'] });
      const admin = await t.loginAdmin();
      const res = await updateUser(admin, user.id, {
        email: 'changed@example.test',
        name: 'Changed Name',
        roles: [t.roleIds.operator],
        is_active: false,
      });
      expect(res.statusCode, res.body).toBe(200);
      const expected = {
        id: user.id,
        username: user.username,
        email: 'changed@example.test',
        name: 'Changed Name',
        roles: [{ id: t.roleIds.operator, name: 'operator' }],
        is_active: false,
      };
      expect(res.json()).toMatchObject(expected);
      const fetched = await t.app.inject({
        method: 'GET',
        url: `/api/users/${user.id}`,
        headers: admin.auth,
      });
      expect(fetched.json()).toMatchObject(expected);

      const reactivated = await updateUser(admin, user.id, {
        email: 'changed@example.test',
        name: 'Changed Name',
        roles: [t.roleIds.operator],
        is_active: true,
      });
      expect(reactivated.json()).toMatchObject({ is_active: true });
      await t.login(user.username, user.password);
    });

    it('keeps the active state when it is not sent', async () => {
      const user = await t.createUser({ roles: ['viewer'] });
      const admin = await t.loginAdmin();
      const res = await updateUser(admin, user.id, {
        email: user.email,
        name: 'Renamed',
        roles: [t.roleIds.viewer],
      });
      expect(res.json()).toMatchObject({ name: 'Renamed', is_active: true });
    });

    it('validates like the edit dialog and refuses an email another user has', async () => {
      const user = await t.createUser({ roles: ['viewer'] });
      const other = await t.createUser({ roles: ['viewer'] });
      const admin = await t.loginAdmin();
      const invalid = expectError(
        await updateUser(admin, user.id, { email: 'nope', name: '', roles: [] }),
        422,
        'validation_failed',
      );
      expect(invalid.errors).toEqual(
        expect.arrayContaining([
          { path: 'email', message: MESSAGES.emailInvalid },
          { path: 'name', message: MESSAGES.nameRequired },
          { path: 'roles', message: MESSAGES.rolesRequired },
        ]),
      );
      expectError(
        await updateUser(admin, user.id, { email: other.email, name: 'X Y', roles: [t.roleIds.viewer] }),
        409,
        'conflict',
      );
    });

    it('answers 404 for a user that does not exist', async () => {
      const admin = await t.loginAdmin();
      expectError(
        await updateUser(admin, 424242, { email: 'a@example.test', name: 'A', roles: [t.roleIds.viewer] }),
        404,
        'not_found',
      );
      expectError(
        await t.app.inject({ method: 'GET', url: '/api/users/424242', headers: admin.auth }),
        404,
        'not_found',
      );
    });
  });

  it('refuses ids beyond any key with 422 rather than a database error', async () => {
    const admin = await t.loginAdmin();
    const huge = 99_999_999_999;
    const body = { email: 'a@example.test', name: 'A', roles: [t.roleIds.viewer] };
    for (const res of [
      await t.app.inject({ method: 'GET', url: `/api/users/${huge}`, headers: admin.auth }),
      await updateUser(admin, huge, body),
      await deleteUser(admin, huge),
    ]) {
      expect(expectError(res, 422, 'validation_failed').errors?.[0]?.path).toBe('id');
    }
    const withRole = await createUser(admin, { ...validUser, roles: [huge] });
    expect(expectError(withRole, 422, 'validation_failed').errors?.[0]?.path).toBe('roles.0');
  });

  describe('DELETE /api/users/:id', () => {
    it('deletes a user, who can no longer sign in', async () => {
      const user = await t.createUser({ roles: ['viewer'] });
      const admin = await t.loginAdmin();
      const res = await deleteUser(admin, user.id);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ ok: true });
      expectError(
        await t.app.inject({ method: 'GET', url: `/api/users/${user.id}`, headers: admin.auth }),
        404,
      );
      expect((await list(admin)).users.map((u) => u.username)).toEqual(['admin']);
      const login = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: user.username, password: user.password },
      });
      expectError(login, 401, 'invalid_credentials');
      expectError(await deleteUser(admin, user.id), 404, 'not_found');
    });
  });

  describe('protecting yourself and the last admin', () => {
    it('nobody can delete or deactivate themselves or remove their own admin role', async () => {
      const admin = await t.loginAdmin();
      // A second admin, so the last-admin rule is not what refuses these.
      await t.createUser({ roles: ['admin'] });
      const self = { email: 'admin@localhost.localdomain', name: 'Administrator' };
      expectError(await deleteUser(admin, t.adminId), 403, 'forbidden');
      expectError(
        await updateUser(admin, t.adminId, { ...self, roles: [t.roleIds.admin], is_active: false }),
        403,
        'forbidden',
      );
      expectError(
        await updateUser(admin, t.adminId, { ...self, roles: [t.roleIds.viewer] }),
        403,
        'forbidden',
      );
      expect((await me(admin)).json()).toMatchObject({ role: 'admin' });
      // Editing your own name while staying an admin is fine.
      const rename = await updateUser(admin, t.adminId, {
        ...self,
        name: 'Chief',
        roles: [t.roleIds.admin, t.roleIds.viewer],
      });
      expect(rename.statusCode).toBe(200);
    });

    it('a non-admin cannot delete themselves either', async () => {
      const manager = await signInManager();
      expectError(await deleteUser(manager, manager.user.id), 403, 'forbidden');
    });

    it('the last active admin cannot be deleted, deactivated or demoted', async () => {
      const manager = await signInSuperuser();
      const self = { email: 'admin@localhost.localdomain', name: 'Administrator' };
      expectError(await deleteUser(manager, t.adminId), 409, 'conflict');
      expectError(
        await updateUser(manager, t.adminId, { ...self, roles: [t.roleIds.admin], is_active: false }),
        409,
        'conflict',
      );
      const demoted = await updateUser(manager, t.adminId, { ...self, roles: [t.roleIds.viewer] });
      expect(expectError(demoted, 409, 'conflict').detail).toMatch(/last active admin/i);
      // The admin is untouched.
      const admin = await t.loginAdmin();
      expect((await me(admin)).json()).toMatchObject({ role: 'admin' });
    });

    it('an inactive admin does not count, and with another active admin the rules relax', async () => {
      const manager = await signInSuperuser();
      const second = await t.createUser({ roles: ['admin'] });
      const secondFields = { email: second.email, name: second.name };
      // A second admin who is inactive leaves the first one the last active admin.
      const deactivated = await updateUser(manager, second.id, {
        ...secondFields,
        roles: [t.roleIds.admin],
        is_active: false,
      });
      expect(deactivated.statusCode).toBe(200);
      expectError(await deleteUser(manager, t.adminId), 409, 'conflict');

      const reactivated = await updateUser(manager, second.id, {
        ...secondFields,
        roles: [t.roleIds.admin],
        is_active: true,
      });
      expect(reactivated.statusCode).toBe(200);
      expect((await deleteUser(manager, t.adminId)).statusCode).toBe(200);
      // Now the second admin is the last one.
      expectError(await deleteUser(manager, second.id), 409, 'conflict');
    });
  });

  describe('ending sessions', () => {
    it('deactivating a user ends their sessions at once', async () => {
      const viewer = await t.signInAs(['viewer']);
      expect((await me(viewer)).statusCode).toBe(200);
      const admin = await t.loginAdmin();
      const res = await updateUser(admin, viewer.user.id, {
        email: viewer.user.email,
        name: viewer.user.name,
        roles: [t.roleIds.viewer],
        is_active: false,
      });
      expect(res.statusCode).toBe(200);
      expectError(await me(viewer), 401, 'unauthenticated');
      const refresh = await t.app.inject({
        method: 'POST',
        url: '/api/auth/refresh',
        payload: { refresh_token: viewer.refreshToken },
      });
      expectError(refresh, 401);
    });

    it('deleting a user ends their sessions at once', async () => {
      const viewer = await t.signInAs(['viewer']);
      expect((await me(viewer)).statusCode).toBe(200);
      const admin = await t.loginAdmin();
      expect((await deleteUser(admin, viewer.user.id)).statusCode).toBe(200);
      expectError(await me(viewer), 401, 'unauthenticated');
      const refresh = await t.app.inject({
        method: 'POST',
        url: '/api/auth/refresh',
        payload: { refresh_token: viewer.refreshToken },
      });
      expectError(refresh, 401);
    });

    it('a role change applies to the next request of a signed-in user', async () => {
      const user = await t.signInAs(['viewer']);
      const admin = await t.loginAdmin();
      const before = await t.app.inject({ method: 'GET', url: '/api/users', headers: user.auth });
      expectError(before, 403, 'forbidden');
      await updateUser(admin, user.user.id, {
        email: user.user.email,
        name: user.user.name,
        roles: [t.roleIds.admin],
      });
      const after = await t.app.inject({ method: 'GET', url: '/api/users', headers: user.auth });
      expect(after.statusCode).toBe(200);
    });
  });

  it('the seeded admin signs in with the configured password', async () => {
    const session = await t.login(ADMIN.username, ADMIN.password);
    expect(session.body.user.username).toBe('admin');
  });
});
