import type { AuditListResponse, AuditLog, User } from '@lumi/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ADMIN, dialects, expectError, REFRESH_COOKIE, useTestApp, type Session } from './helper.js';

const USER_AGENT = 'audit-test/1.0';

describe.each(dialects)('audit log on %s', (dialect) => {
  const t = useTestApp(dialect);

  afterEach(() => {
    vi.useRealTimers();
  });

  const logs = async (session: Session, query = '') => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/admin/audit-logs${query}`,
      headers: session.auth,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<AuditListResponse>();
  };
  /** Every entry, newest first, read with the largest page. */
  const allLogs = async (session: Session, query = '') => (await logs(session, `?limit=200${query}`)).logs;
  const send = (session: Session, method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, payload, headers: { ...session.auth, 'user-agent': USER_AGENT } });
  const only = (entries: AuditLog[], action: string) => {
    const found = entries.filter((e) => e.action === action);
    expect(found, `one ${action} entry`).toHaveLength(1);
    return found[0]!;
  };
  const updateProfile = (session: Session, name: string) =>
    t.app.inject({ method: 'PUT', url: '/api/auth/profile', headers: session.auth, payload: { name } });

  it('records user changes with old and new values, the actor and the client, never a password', async () => {
    const admin = await t.loginAdmin();
    const password = 'Secret-new-user-pw-9';
    const created = await send(admin, 'POST', '/api/users', {
      username: 'audited',
      email: 'audited@example.test',
      name: 'Audited Person',
      password,
      roles: [t.roleIds.viewer],
    });
    expect(created.statusCode).toBe(201);
    const id = created.json<User>().id;
    await send(admin, 'PUT', `/api/users/${id}`, {
      email: 'audited@example.test',
      name: 'Renamed Person',
      roles: [t.roleIds.operator],
    });
    await send(admin, 'DELETE', `/api/users/${id}`);

    const entries = (await allLogs(admin, '&resource_type=user')).filter((e) => e.resource_id === String(id));
    const common = {
      user: 'admin',
      resource_type: 'user',
      resource_id: String(id),
      resource_name: 'audited',
      ip_address: '127.0.0.1',
      user_agent: USER_AGENT,
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    };
    const before = {
      id,
      username: 'audited',
      email: 'audited@example.test',
      name: 'Audited Person',
      is_active: true,
      roles: ['viewer'],
    };
    const after = { ...before, name: 'Renamed Person', roles: ['operator'] };
    expect(only(entries, 'user.created')).toMatchObject({ ...common, old_value: null, new_value: before });
    expect(only(entries, 'user.updated')).toMatchObject({ ...common, old_value: before, new_value: after });
    expect(only(entries, 'user.deleted')).toMatchObject({ ...common, old_value: after, new_value: null });
    // Newest first.
    expect(entries.map((e) => e.action)).toEqual(['user.deleted', 'user.updated', 'user.created']);

    const text = JSON.stringify(await allLogs(admin));
    expect(text).not.toContain(password);
    expect(text).not.toContain('scrypt');
    expect(text).not.toMatch(/password_hash/);
  });

  it('keeps the name each resource had at the time of the change, also after it is deleted', async () => {
    const admin = await t.loginAdmin();
    const base = '/api/admin/api/config/moods';
    const item = await send(admin, 'POST', base, { name: 'Sunny', content: 'Bright and warm' });
    expect(item.statusCode, item.body).toBe(201);
    const { id, version } = item.json<{ id: number; version: number }>();
    const renamed = await send(admin, 'PUT', `${base}/${id}`, {
      name: 'Sunnier',
      content: 'Bright and warm',
      version,
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `${base}/${id}?version=${version + 1}`,
      headers: admin.auth,
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    const role = await send(admin, 'POST', '/api/roles', { name: 'auditors', permissions: ['users:read'] });
    const key = await send(admin, 'POST', '/api/admin/api-keys', {
      name: 'prod-bot',
      scopes: ['ingest:write'],
    });

    const entries = await allLogs(admin);
    const named = (action: string) => only(entries, action).resource_name;
    expect(named('config.created')).toBe('Sunny');
    expect(named('config.updated')).toBe('Sunnier');
    expect(named('config.deleted')).toBe('Sunnier');
    expect(only(entries, 'role.created')).toMatchObject({
      resource_id: String(role.json<{ id: number }>().id),
      resource_name: 'auditors',
    });
    expect(named('api_key.created')).toBe('prod-bot');
    expect(key.statusCode).toBe(201);
    // Entries about no particular resource have no name.
    expect(entries.filter((e) => e.action === 'auth.login').every((e) => e.resource_name === null)).toBe(
      true,
    );
  });

  it("says what a user, config item or template is called now while it exists, for the console's links", async () => {
    const admin = await t.loginAdmin();
    const base = '/api/admin/api/config/moods';
    const first = await send(admin, 'POST', base, { name: 'Calm', content: 'Quiet' });
    const gone = await send(admin, 'POST', base, { name: 'Stormy', content: 'Loud' });
    const calm = first.json<{ id: number; version: number }>();
    const stormy = gone.json<{ id: number; version: number }>();
    const renamed = await send(admin, 'PUT', `${base}/${calm.id}`, {
      name: 'Calmer',
      content: 'Quiet',
      version: calm.version,
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `${base}/${stormy.id}?version=${stormy.version}`,
      headers: admin.auth,
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    await updateProfile(admin, 'Admin Now');

    const entries = await allLogs(admin);
    const created = (id: number) =>
      entries.find((e) => e.action === 'config.created' && e.resource_id === String(id))!;
    // Kept at the time, and as it is called now.
    expect(created(calm.id)).toMatchObject({ resource_name: 'Calm', resource_current_name: 'Calmer' });
    // Gone: no current name, so no link.
    expect(created(stormy.id)).toMatchObject({ resource_name: 'Stormy', resource_current_name: null });
    expect(only(entries, 'profile.updated').resource_current_name).toBe('admin');
    // Resources the console has no screen for carry none.
    expect(
      entries.filter((e) => e.action === 'auth.login').every((e) => e.resource_current_name === null),
    ).toBe(true);
  });

  it('records role changes', async () => {
    const admin = await t.loginAdmin();
    const created = await send(admin, 'POST', '/api/roles', { name: 'support', permissions: ['users:read'] });
    const id = created.json<{ id: number }>().id;
    await send(admin, 'PUT', `/api/roles/${id}`, {
      name: 'support',
      permissions: ['users:read', 'users:write'],
    });
    await send(admin, 'DELETE', `/api/roles/${id}`);

    const entries = await allLogs(admin, '&resource_type=role');
    const common = { user: 'admin', resource_type: 'role', resource_id: String(id) };
    expect(only(entries, 'role.created')).toMatchObject({
      ...common,
      old_value: null,
      new_value: { name: 'support', permissions: ['users:read'] },
    });
    expect(only(entries, 'role.updated')).toMatchObject({
      ...common,
      old_value: { permissions: ['users:read'] },
      new_value: { permissions: ['users:read', 'users:write'] },
    });
    expect(only(entries, 'role.deleted')).toMatchObject({
      ...common,
      old_value: { name: 'support', permissions: ['users:read', 'users:write'] },
      new_value: null,
    });
  });

  it('records profile changes by the signed-in user', async () => {
    const viewer = await t.signInAs(['viewer']);
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/auth/profile',
      headers: viewer.auth,
      payload: { name: 'Fresh Name', email: 'fresh@example.test' },
    });
    expect(res.statusCode).toBe(200);
    const admin = await t.loginAdmin();
    expect(only(await allLogs(admin), 'profile.updated')).toMatchObject({
      user: viewer.user.username,
      resource_type: 'user',
      resource_id: String(viewer.user.id),
      old_value: { name: viewer.user.name, email: viewer.user.email },
      new_value: { name: 'Fresh Name', email: 'fresh@example.test' },
    });
  });

  it('records sign-in, failure, sign-out and password change without passwords or tokens', async () => {
    const user = await t.createUser({ roles: ['viewer'] });
    const failed = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: user.username, password: 'Wrong-password-77' },
    });
    expect(failed.statusCode).toBe(401);
    const session = await t.login(user.username, user.password);
    const change = await t.app.inject({
      method: 'POST',
      url: '/api/auth/change-password',
      headers: session.auth,
      payload: {
        current_password: user.password,
        new_password: 'Changed-password-88',
        confirm_password: 'Changed-password-88',
      },
    });
    expect(change.statusCode).toBe(200);
    const logout = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: session.auth,
      cookies: { [REFRESH_COOKIE]: session.refreshToken },
    });
    expect(logout.statusCode).toBe(200);

    const admin = await t.loginAdmin();
    const entries = (await allLogs(admin)).filter((e) => e.user === user.username);
    expect(entries.map((e) => e.action)).toEqual([
      'auth.logout',
      'auth.password_changed',
      'auth.login',
      'auth.login_failed',
    ]);
    expect(only(entries, 'auth.login_failed')).toMatchObject({
      ip_address: '127.0.0.1',
      new_value: { username: user.username, reason: 'invalid_credentials' },
    });
    expect(only(entries, 'auth.password_changed')).toMatchObject({
      resource_type: 'user',
      resource_id: String(user.id),
    });

    const text = JSON.stringify(await allLogs(admin));
    for (const secret of [
      user.password,
      'Wrong-password-77',
      'Changed-password-88',
      ADMIN.password,
      session.accessToken,
      session.refreshToken,
      admin.refreshToken,
    ]) {
      expect(text).not.toContain(secret);
    }
  });

  it('writes no entry for a change that was refused', async () => {
    await t.createUser({ roles: ['viewer'] });
    const admin = await t.loginAdmin();
    const before = await allLogs(admin);
    const duplicate = await send(admin, 'POST', '/api/users', {
      username: 'admin',
      email: 'someone@example.test',
      name: 'Someone',
      password: 'Perfectly-fine-pw-1',
      roles: [t.roleIds.viewer],
    });
    expect(duplicate.statusCode).toBe(409);
    expectError(await send(admin, 'DELETE', `/api/roles/${t.roleIds.viewer}`), 409);
    expect(await allLogs(admin)).toEqual(before);
  });

  it('returns 50 entries by default and at most 200', async () => {
    const admin = await t.loginAdmin();
    for (let i = 0; i < 60; i += 1) expect((await updateProfile(admin, `Name ${i}`)).statusCode).toBe(200);

    const firstPage = await logs(admin);
    expect(firstPage.logs).toHaveLength(50);
    expect(firstPage.next_cursor).toEqual(expect.any(Number));
    expect((await logs(admin, '?limit=2')).logs).toHaveLength(2);
    const everything = await logs(admin, '?limit=200');
    // 60 profile changes, the seeded admin's creation and the sign-in.
    expect(everything.logs).toHaveLength(62);
    expect(everything.next_cursor).toBeNull();

    for (const query of ['?limit=201', '?limit=0', '?limit=many', '?cursor=-1', '?cursor=99999999999']) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/admin/audit-logs${query}`,
        headers: admin.auth,
      });
      expectError(res, 422, 'validation_failed');
    }
  });

  it('pages through every entry with next_cursor, newest first, without gaps or repeats', async () => {
    const admin = await t.loginAdmin();
    for (let i = 0; i < 23; i += 1) await updateProfile(admin, `Name ${i}`);
    const expected = (await allLogs(admin)).map((e) => e.id);

    const seen: number[] = [];
    let cursor: number | null = null;
    let pages = 0;
    do {
      const page: AuditListResponse = await logs(
        admin,
        `?limit=7${cursor === null ? '' : `&cursor=${cursor}`}`,
      );
      seen.push(...page.logs.map((e) => e.id));
      cursor = page.next_cursor;
      pages += 1;
    } while (cursor !== null && pages < 20);

    expect(seen).toEqual(expected);
    expect(pages).toBe(Math.ceil(expected.length / 7));
    expect([...seen].sort((a, b) => b - a)).toEqual(seen);
  });

  it('filters by action, resource type and user (ignoring case)', async () => {
    const admin = await t.loginAdmin();
    const viewer = await t.signInAs(['viewer']);
    await updateProfile(viewer, 'Viewer Name');
    await updateProfile(admin, 'Admin Name');
    await send(admin, 'POST', '/api/roles', { name: 'support', permissions: ['users:read'] });

    const byAction = await allLogs(admin, '&action=profile.updated');
    expect(byAction.map((e) => e.user)).toEqual(['admin', viewer.user.username]);

    const byType = await allLogs(admin, '&resource_type=role');
    expect(byType.map((e) => e.action)).toEqual(['role.created']);

    const byUser = await allLogs(admin, `&user=${viewer.user.username.toUpperCase()}`);
    expect(byUser.map((e) => e.action)).toEqual(['profile.updated', 'auth.login']);
    expect(byUser.every((e) => e.user === viewer.user.username)).toBe(true);

    const combined = await allLogs(admin, '&user=admin&action=profile.updated');
    expect(combined).toHaveLength(1);
    expect(await allLogs(admin, '&action=no.such.action')).toEqual([]);
  });

  it('filters by a time range', async () => {
    const admin = await t.loginAdmin();
    // Pin the clock (Date only) a minute apart for each change, so the entries have distinct times.
    const base = Math.ceil(Date.now() / 60_000) * 60_000;
    const at = (minutes: number) => new Date(base + minutes * 60_000).toISOString();
    vi.useFakeTimers({ toFake: ['Date'] });
    for (const [minute, name] of [
      [1, 'first'],
      [2, 'second'],
      [3, 'third'],
    ] as const) {
      vi.setSystemTime(new Date(at(minute)));
      expect(
        (await send(admin, 'POST', '/api/roles', { name, permissions: ['users:read'] })).statusCode,
      ).toBe(201);
    }
    vi.useRealTimers();

    const names = async (query: string) =>
      (await allLogs(admin, `&resource_type=role${query}`)).map(
        (e) => (e.new_value as { name: string }).name,
      );
    expect(await names('')).toEqual(['third', 'second', 'first']);
    expect(await names(`&from=${at(2)}`)).toEqual(['third', 'second']);
    expect(await names(`&to=${at(2)}`)).toEqual(['second', 'first']);
    expect(await names(`&from=${at(1.5)}&to=${at(2.5)}`)).toEqual(['second']);
    // An offset other than Z means the same instant.
    const plusOneHour = new Date(base + 2 * 60_000 + 3600_000).toISOString().replace('Z', '+01:00');
    expect(await names(`&from=${encodeURIComponent(plusOneHour)}`)).toEqual(['third', 'second']);
    expect(await names(`&from=${at(10)}`)).toEqual([]);

    const invalid = await t.app.inject({
      method: 'GET',
      url: '/api/admin/audit-logs?from=yesterday',
      headers: admin.auth,
    });
    expectError(invalid, 422, 'validation_failed');
  });

  it('offers no way to change or delete entries', async () => {
    const admin = await t.loginAdmin();
    const before = await allLogs(admin);
    const id = before[0]!.id;
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      for (const url of ['/api/admin/audit-logs', `/api/admin/audit-logs/${id}`]) {
        const res = await t.app.inject({ method, url, headers: admin.auth, payload: { action: 'forged' } });
        expectError(res, 404, 'not_found');
      }
    }
    expect(await allLogs(admin)).toEqual(before);
  });
});
