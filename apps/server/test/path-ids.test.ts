import { describe, expect, it } from 'vitest';
import { dialects, expectError, useTestApp } from './helper.js';

/** (docs/operators/security.md, "Bounded work") an id is canonical decimal or it is no id at all. */
describe.each(dialects)('ids in paths and query strings on %s', (dialect) => {
  const t = useTestApp(dialect);
  const lookalikes = ['0x1', '%201', '1e0', '+1', '01', '1.0', '1%20', '0b1', '1_0', '%EF%BC%91'];

  it.each(lookalikes)('refuses %s in a path instead of reading record 1', async (id) => {
    const admin = await t.loginAdmin();
    const res = await t.app.inject({ method: 'GET', url: `/api/users/${id}`, headers: admin.auth });
    const body = expectError(res, 422, 'validation_failed');
    expect(body.detail).toBe('id: Must be an id: a whole number such as 42');
  });

  it('revokes no API key through a hexadecimal id', async () => {
    const admin = await t.loginAdmin();
    const ids: number[] = [];
    for (let i = 0; i < 16; i += 1) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/admin/api-keys',
        headers: admin.auth,
        payload: { name: `key-${i}`, scopes: ['ingest:write'] },
      });
      expect(res.statusCode, res.body).toBe(201);
      ids.push(res.json<{ id: number }>().id);
    }
    const hex = `0x${Math.max(...ids).toString(16)}`;
    expectError(
      await t.app.inject({ method: 'DELETE', url: `/api/admin/api-keys/${hex}`, headers: admin.auth }),
      422,
    );
    const keys = await t.app.inject({ method: 'GET', url: '/api/admin/api-keys', headers: admin.auth });
    expect(keys.json<Array<{ revoked_at: string | null }>>().every((k) => k.revoked_at === null)).toBe(true);
  });

  it('reads the canonical id and pages only with canonical numbers', async () => {
    const admin = await t.loginAdmin();
    const one = await t.app.inject({ method: 'GET', url: `/api/users/${t.adminId}`, headers: admin.auth });
    expect(one.statusCode).toBe(200);
    expectError(await t.app.inject({ method: 'GET', url: '/api/users?page=0x2', headers: admin.auth }), 422);
    expectError(await t.app.inject({ method: 'GET', url: '/api/users?limit=1e1', headers: admin.auth }), 422);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/users?page=1&limit=10', headers: admin.auth }))
        .statusCode,
    ).toBe(200);
  });
});
