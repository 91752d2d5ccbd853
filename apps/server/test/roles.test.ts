import { ROLE_MESSAGES, SEEDED_ROLES, type Role } from '@lumi/contract';
import { describe, expect, it } from 'vitest';
import { dialects, expectError, useTestApp, type Session } from './helper.js';

describe.each(dialects)('roles on %s', (dialect) => {
  const t = useTestApp(dialect);

  const listRoles = async (session: Session) => {
    const res = await t.app.inject({ method: 'GET', url: '/api/roles', headers: session.auth });
    expect(res.statusCode).toBe(200);
    return res.json<Role[]>();
  };
  const createRole = (session: Session, payload: object) =>
    t.app.inject({ method: 'POST', url: '/api/roles', headers: session.auth, payload });
  const updateRole = (session: Session, id: number, payload: object) =>
    t.app.inject({ method: 'PUT', url: `/api/roles/${id}`, headers: session.auth, payload });
  const deleteRole = (session: Session, id: number) =>
    t.app.inject({ method: 'DELETE', url: `/api/roles/${id}`, headers: session.auth });

  it('lists the seeded roles with their permissions', async () => {
    const admin = await t.loginAdmin();
    await t.createUser({ roles: ['viewer'] });
    const roles = await listRoles(admin);
    expect(roles).toEqual(
      SEEDED_ROLES.map((seeded) => ({
        id: t.roleIds[seeded.name as 'admin' | 'operator' | 'viewer'],
        name: seeded.name,
        description: seeded.description,
        permissions: [...seeded.permissions],
        built_in: seeded.name === 'admin',
        user_count: seeded.name === 'operator' ? 0 : 1,
        require_two_factor: false,
      })),
    );
  });

  it('creates a custom role whose permissions apply to its users', async () => {
    const admin = await t.loginAdmin();
    const res = await createRole(admin, {
      name: 'support',
      description: 'Helps users',
      permissions: ['users:read', 'admin:audit:read'],
    });
    expect(res.statusCode, res.body).toBe(201);
    const role = res.json<Role>();
    expect(role).toEqual({
      id: expect.any(Number),
      name: 'support',
      description: 'Helps users',
      permissions: ['users:read', 'admin:audit:read'],
      built_in: false,
      user_count: 0,
      require_two_factor: false,
    });
    expect(await listRoles(admin)).toContainEqual(role);

    const support = await t.signInAs(['support']);
    const get = (url: string) => t.app.inject({ method: 'GET', url, headers: support.auth });
    expect((await get('/api/users')).statusCode).toBe(200);
    expect((await get('/api/admin/audit-logs')).statusCode).toBe(200);
    expectError(
      await t.app.inject({ method: 'POST', url: '/api/users', headers: support.auth, payload: {} }),
      403,
      'forbidden',
    );
  });

  it.each([
    [{ name: '', permissions: ['users:read'] }, 'name', ROLE_MESSAGES.nameRequired],
    [{ permissions: ['users:read'] }, 'name', ROLE_MESSAGES.nameRequired],
    [{ name: 'Has Spaces', permissions: ['users:read'] }, 'name', ROLE_MESSAGES.nameFormat],
    [{ name: 'empty', permissions: [] }, 'permissions', ROLE_MESSAGES.permissionsRequired],
    [{ name: 'empty' }, 'permissions', ROLE_MESSAGES.permissionsRequired],
  ])('validates a new role %o', async (payload, path, message) => {
    const admin = await t.loginAdmin();
    const body = expectError(await createRole(admin, payload), 422, 'validation_failed');
    expect(body.errors).toContainEqual({ path, message });
  });

  it('accepts only permissions of the catalogue', async () => {
    const admin = await t.loginAdmin();
    const body = expectError(
      await createRole(admin, { name: 'odd', permissions: ['users:read', 'rockets:launch'] }),
      422,
      'validation_failed',
    );
    expect(body.errors?.[0]?.path).toBe('permissions.1');
    expect((await listRoles(admin)).map((r) => r.name)).not.toContain('odd');
  });

  it('refuses a second role with the same name', async () => {
    const admin = await t.loginAdmin();
    expectError(await createRole(admin, { name: 'viewer', permissions: ['users:read'] }), 409, 'conflict');
    expect((await createRole(admin, { name: 'support', permissions: ['users:read'] })).statusCode).toBe(201);
    expectError(await createRole(admin, { name: 'support', permissions: ['users:read'] }), 409, 'conflict');
  });

  it('edits a custom role, and the change applies to signed-in users at once', async () => {
    const admin = await t.loginAdmin();
    const role = (await createRole(admin, { name: 'support', permissions: ['users:read'] })).json<Role>();
    const support = await t.signInAs(['support']);
    expect((await t.app.inject({ method: 'GET', url: '/api/users', headers: support.auth })).statusCode).toBe(
      200,
    );

    const res = await updateRole(admin, role.id, {
      name: 'helpdesk',
      description: 'Reads the audit log',
      permissions: ['admin:audit:read'],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      id: role.id,
      name: 'helpdesk',
      description: 'Reads the audit log',
      permissions: ['admin:audit:read'],
      built_in: false,
      user_count: 1,
      require_two_factor: false,
    });
    expectError(
      await t.app.inject({ method: 'GET', url: '/api/users', headers: support.auth }),
      403,
      'forbidden',
    );
    const audit = await t.app.inject({ method: 'GET', url: '/api/admin/audit-logs', headers: support.auth });
    expect(audit.statusCode).toBe(200);
  });

  it('refuses to rename a role to the name of another and answers 404 for an unknown role', async () => {
    const admin = await t.loginAdmin();
    const role = (await createRole(admin, { name: 'support', permissions: ['users:read'] })).json<Role>();
    expectError(
      await updateRole(admin, role.id, { name: 'operator', permissions: ['users:read'] }),
      409,
      'conflict',
    );
    expectError(
      await updateRole(admin, 9999, { name: 'ghost', permissions: ['users:read'] }),
      404,
      'not_found',
    );
    expectError(await deleteRole(admin, 9999), 404, 'not_found');
    // Beyond any key: refused as input, never a database error.
    expectError(await deleteRole(admin, 99_999_999_999), 422, 'validation_failed');
    expectError(
      await updateRole(admin, 99_999_999_999, { name: 'ghost', permissions: ['users:read'] }),
      422,
      'validation_failed',
    );
  });

  it('the built-in admin role cannot be changed or deleted', async () => {
    const admin = await t.loginAdmin();
    const before = await listRoles(admin);
    expectError(
      await updateRole(admin, t.roleIds.admin, { name: 'admin', permissions: ['users:read'] }),
      403,
      'forbidden',
    );
    expectError(await deleteRole(admin, t.roleIds.admin), 403, 'forbidden');
    expect(await listRoles(admin)).toEqual(before);
    expect((await t.loginAdmin()).body.user.roles).toEqual([
      { id: t.roleIds.admin, name: 'admin', permissions: ['*'] },
    ]);
  });

  it('deletes a custom role that nobody has, but not one still assigned', async () => {
    const admin = await t.loginAdmin();
    const role = (await createRole(admin, { name: 'support', permissions: ['users:read'] })).json<Role>();
    const user = await t.createUser({ roles: ['support', 'viewer'] });

    const refused = expectError(await deleteRole(admin, role.id), 409, 'conflict');
    expect(refused.detail).toContain('support');
    expect((await listRoles(admin)).map((r) => r.name)).toContain('support');

    const unassign = await t.app.inject({
      method: 'PUT',
      url: `/api/users/${user.id}`,
      headers: admin.auth,
      payload: { email: user.email, name: user.name, roles: [t.roleIds.viewer] },
    });
    expect(unassign.statusCode).toBe(200);
    const res = await deleteRole(admin, role.id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    expect((await listRoles(admin)).map((r) => r.name)).toEqual(['admin', 'operator', 'viewer']);
  });
});
