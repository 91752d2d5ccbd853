import { describe, expect, it } from 'vitest';
import { dialects, expectError, useTestApp } from './helper.js';

describe.each(dialects)('no privilege escalation on %s', (dialect) => {
  const t = useTestApp(dialect);

  async function userManager() {
    const admin = await t.loginAdmin();
    const role = await t.app.inject({
      method: 'POST',
      url: '/api/roles',
      headers: admin.auth,
      payload: { name: 'user-manager', permissions: ['users:read', 'users:write'] },
    });
    expect(role.statusCode, role.body).toBe(201);
    return {
      admin,
      managerRoleId: role.json<{ id: number }>().id,
      manager: await t.signInAs(['user-manager']),
    };
  }

  const newUser = (roles: number[], username: string) => ({
    username,
    email: `${username}@example.test`,
    name: username,
    password: 'Escalate-not-9931',
    roles,
  });

  it('grants only roles whose permissions the actor holds', async () => {
    const { manager, managerRoleId } = await userManager();
    const post = (roles: number[], username: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/users',
        headers: manager.auth,
        payload: newUser(roles, username),
      });

    const asAdmin = expectError(await post([t.roleIds.admin], 'would-be-admin'), 403, 'forbidden');
    expect(asAdmin.detail).toContain("You cannot grant 'admin'");
    const asOperator = expectError(await post([t.roleIds.operator], 'would-be-operator'), 403, 'forbidden');
    expect(asOperator.detail).toContain("'metrics:read'");
    expect((await post([managerRoleId], 'peer-manager')).statusCode).toBe(201);
  });

  it('cannot edit or delete someone who holds more, nor make themselves admin', async () => {
    const { manager } = await userManager();
    const operator = await t.createUser({ roles: ['operator'] });
    const edit = await t.app.inject({
      method: 'PUT',
      url: `/api/users/${operator.id}`,
      headers: manager.auth,
      payload: { email: operator.email, name: 'Renamed', roles: [t.roleIds.viewer] },
    });
    expectError(edit, 403, 'forbidden');
    expectError(
      await t.app.inject({ method: 'DELETE', url: `/api/users/${t.adminId}`, headers: manager.auth }),
      403,
    );

    const self = await t.app.inject({
      method: 'PUT',
      url: `/api/users/${manager.user.id}`,
      headers: manager.auth,
      payload: { email: manager.user.email, name: manager.user.name, roles: [t.roleIds.admin] },
    });
    expectError(self, 403, 'forbidden');
  });

  it('cannot create or widen a role beyond their own permissions', async () => {
    const { manager, managerRoleId } = await userManager();
    const wide = await t.app.inject({
      method: 'POST',
      url: '/api/roles',
      headers: manager.auth,
      payload: { name: 'everything', permissions: ['*'] },
    });
    expectError(wide, 403, 'forbidden');
    const widen = await t.app.inject({
      method: 'PUT',
      url: `/api/roles/${managerRoleId}`,
      headers: manager.auth,
      payload: { name: 'user-manager', permissions: ['users:read', 'users:write', 'config:write'] },
    });
    expectError(widen, 403, 'forbidden');
  });

  it('cannot delete a role stronger than their own, but may delete one within it', async () => {
    const { admin, manager } = await userManager();
    const create = async (name: string, permissions: string[]) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/roles',
        headers: admin.auth,
        payload: { name, permissions },
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json<{ id: number }>().id;
    };
    const everything = await create('everything', ['*']);
    const auditor = await create('auditor', ['admin:audit:read']);
    const readers = await create('readers', ['users:read']);
    const remove = (id: number) =>
      t.app.inject({ method: 'DELETE', url: `/api/roles/${id}`, headers: manager.auth });

    expect(expectError(await remove(everything), 403, 'forbidden').detail).toBe(
      "You cannot delete 'everything': it includes '*', which you do not have yourself",
    );
    expect(expectError(await remove(auditor), 403, 'forbidden').detail).toContain("'admin:audit:read'");
    expect((await remove(readers)).statusCode).toBe(200);

    const roles = await t.app.inject({ method: 'GET', url: '/api/roles', headers: admin.auth });
    const names = roles.json<Array<{ name: string }>>().map((r) => r.name);
    expect(names).toEqual(expect.arrayContaining(['everything', 'auditor']));
    expect(names).not.toContain('readers');
  });
});
