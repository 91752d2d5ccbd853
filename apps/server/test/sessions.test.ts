import type { AuditListResponse, AuthSession, AuthSessionListResponse } from '@lumi/contract';
import { describe, expect, it } from 'vitest';
import { cookieValue, dialects, expectError, REFRESH_COOKIE, useTestApp, type Session } from './helper.js';

const FIREFOX = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:133.0) Gecko/20100101 Firefox/133.0';
const CHROME_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

describe.each(dialects)('signed-in sessions on %s', (dialect) => {
  // Near the real time: access tokens carry real expiry times, and a principal is kept no longer than those.
  const start = Math.floor(Date.now() / 60_000) * 60_000;
  let now = start;
  const at = (ms: number) => new Date(start + ms).toISOString();
  // Principals are kept a whole minute: a revoked access token refused sooner was told, not waited out.
  const t = useTestApp(dialect, { app: { now: () => now, authCacheSeconds: 60 } });

  const get = (url: string, auth: Record<string, string>) =>
    t.app.inject({ method: 'GET', url, headers: auth });
  const post = (url: string, auth: Record<string, string>) =>
    t.app.inject({ method: 'POST', url, headers: auth });
  const refresh = (refreshToken: string) =>
    t.app.inject({ method: 'POST', url: '/api/auth/refresh', cookies: { [REFRESH_COOKIE]: refreshToken } });

  /** Signs in from a device of its own (address and browser). */
  const signInFrom = async (username: string, password: string, ip: string, userAgent: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username, password },
      remoteAddress: ip,
      headers: { 'user-agent': userAgent },
    });
    expect(res.statusCode, res.body).toBe(200);
    const accessToken = res.json<{ access_token: string }>().access_token;
    return {
      auth: { authorization: `Bearer ${accessToken}` },
      refreshToken: cookieValue(res, REFRESH_COOKIE)!,
    };
  };

  const sessionsOf = async (auth: Record<string, string>) => {
    const res = await get('/api/auth/sessions', auth);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<AuthSessionListResponse>().sessions;
  };

  /** The session still works through both of its tokens (checked in that order: the refresh rotates). */
  const expectAlive = async (session: Pick<Session, 'auth' | 'refreshToken'>) => {
    expect((await get('/api/auth/me', session.auth)).statusCode).toBe(200);
    const res = await refresh(session.refreshToken);
    expect(res.statusCode, res.body).toBe(200);
    session.refreshToken = cookieValue(res, REFRESH_COOKIE)!;
  };
  const expectEnded = async (session: Pick<Session, 'auth' | 'refreshToken'>) => {
    expectError(await get('/api/auth/me', session.auth), 401, 'unauthenticated');
    expectError(await refresh(session.refreshToken), 401, 'session_expired');
  };

  const audit = async (action: string) => {
    const admin = await t.loginAdmin();
    return (await get(`/api/admin/audit-logs?action=${action}`, admin.auth)).json<AuditListResponse>().logs;
  };

  it('lists the user’s own sessions, newest first, with the device and this one marked', async () => {
    now = start;
    const user = await t.createUser({ roles: ['viewer'] });
    const laptop = await signInFrom(user.username, user.password, '192.0.2.10', FIREFOX);
    now += 60_000;
    const desktop = await signInFrom(user.username, user.password, '192.0.2.20', CHROME_WINDOWS);
    // Someone else's session is never listed.
    await t.signInAs(['viewer']);

    const sessions = await sessionsOf(laptop.auth);
    expect(sessions).toEqual([
      {
        id: expect.any(String),
        created_at: at(60_000),
        last_used_at: at(60_000),
        expires_at: expect.any(String),
        ip_address: '192.0.2.20',
        user_agent: CHROME_WINDOWS,
        browser: 'Chrome 131',
        os: 'Windows',
        current: false,
      },
      {
        id: expect.any(String),
        created_at: at(0),
        last_used_at: at(0),
        expires_at: expect.any(String),
        ip_address: '192.0.2.10',
        user_agent: FIREFOX,
        browser: 'Firefox 133',
        os: 'macOS',
        current: true,
      },
    ]);
    expect((await sessionsOf(desktop.auth)).map((s) => s.current)).toEqual([true, false]);

    // A refresh is a use.
    now += 5 * 60_000;
    expect((await refresh(laptop.refreshToken)).statusCode).toBe(200);
    const laptopRow = (await sessionsOf(desktop.auth)).find((s) => s.ip_address === '192.0.2.10')!;
    expect(laptopRow.last_used_at).toBe(at(6 * 60_000));
  });

  it('signing out one session ends its refresh token and its access token at once', async () => {
    const user = await t.createUser({ roles: ['viewer'] });
    const phone = await signInFrom(user.username, user.password, '192.0.2.30', FIREFOX);
    const laptop = await signInFrom(user.username, user.password, '192.0.2.31', CHROME_WINDOWS);
    await expectAlive(phone);
    const phoneId = (await sessionsOf(laptop.auth)).find((s) => s.ip_address === '192.0.2.30')!.id;

    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/auth/sessions/${phoneId}`,
      headers: laptop.auth,
    });
    expect(res.statusCode, res.body).toBe(200);
    await expectEnded(phone);
    await expectAlive(laptop);
    expect((await sessionsOf(laptop.auth)).map((s) => s.ip_address)).toEqual(['192.0.2.31']);
    // Gone already: 404, and so is anybody else's session.
    expectError(
      await t.app.inject({ method: 'DELETE', url: `/api/auth/sessions/${phoneId}`, headers: laptop.auth }),
      404,
      'not_found',
    );
    const other = await t.signInAs(['viewer']);
    const otherId = (await sessionsOf(other.auth))[0]!.id;
    expectError(
      await t.app.inject({ method: 'DELETE', url: `/api/auth/sessions/${otherId}`, headers: laptop.auth }),
      404,
    );
    await expectAlive(other);
    expect(await audit('auth.session_revoked')).toEqual([
      expect.objectContaining({ user: user.username, resource_type: 'session', resource_id: phoneId }),
    ]);
  });

  it('signing out all other sessions keeps only this one', async () => {
    const user = await t.createUser({ roles: ['viewer'] });
    const others = [
      await signInFrom(user.username, user.password, '192.0.2.40', FIREFOX),
      await signInFrom(user.username, user.password, '192.0.2.41', FIREFOX),
    ];
    const here = await signInFrom(user.username, user.password, '192.0.2.42', CHROME_WINDOWS);
    const res = await post('/api/auth/sessions/revoke-others', here.auth);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ revoked: 2 });
    for (const session of others) await expectEnded(session);
    await expectAlive(here);
    expect((await sessionsOf(here.auth)).map((s: AuthSession) => s.current)).toEqual([true]);
    expect((await post('/api/auth/sessions/revoke-others', here.auth)).json()).toEqual({ revoked: 0 });
    expect((await audit('auth.other_sessions_revoked'))[1]).toMatchObject({ new_value: { revoked: 2 } });
  });

  it('an admin lists a user’s sessions and signs the user out everywhere', async () => {
    const session = await t.signInAs(['operator']);
    const second = await signInFrom(session.user.username, session.user.password, '192.0.2.50', FIREFOX);
    const admin = await t.loginAdmin();
    const listed = await get(`/api/users/${session.user.id}/sessions`, admin.auth);
    expect(listed.statusCode, listed.body).toBe(200);
    const sessions = listed.json<AuthSessionListResponse>().sessions;
    expect(sessions).toHaveLength(2);
    expect(sessions.every((s) => !s.current)).toBe(true);

    const res = await post(`/api/users/${session.user.id}/sessions/revoke`, admin.auth);
    expect(res.json()).toEqual({ revoked: 2 });
    await expectEnded(session);
    await expectEnded(second);
    await expectAlive(admin);
    expect((await get(`/api/users/${session.user.id}/sessions`, admin.auth)).json()).toEqual({
      sessions: [],
    });
    expect(await audit('user.sessions_revoked')).toEqual([
      expect.objectContaining({ resource_id: String(session.user.id), new_value: { revoked: 2 } }),
    ]);
    expectError(await get('/api/users/999999/sessions', admin.auth), 404, 'not_found');
    expectError(await post('/api/users/999999/sessions/revoke', admin.auth), 404, 'not_found');
  });

  it('a user manager cannot sign out a user who holds more than they do', async () => {
    const admin = await t.loginAdmin();
    const managerRole = await t.app.inject({
      method: 'POST',
      url: '/api/roles',
      headers: admin.auth,
      payload: { name: 'user-manager', permissions: ['users:read', 'users:write'] },
    });
    expect(managerRole.statusCode, managerRole.body).toBe(201);
    const manager = await t.signInAs(['user-manager']);
    expectError(await post(`/api/users/${t.adminId}/sessions/revoke`, manager.auth), 403, 'forbidden');
    expectError(await post(`/api/users/${t.adminId}/2fa/reset`, manager.auth), 403, 'forbidden');
    const reset = await t.app.inject({
      method: 'POST',
      url: `/api/users/${t.adminId}/password-reset`,
      headers: manager.auth,
      payload: { temporary_password: 'Temporary-pass-42' },
    });
    expectError(reset, 403, 'forbidden');
    await expectAlive(admin);
  });

  it('deactivating a user ends their sessions through both tokens', async () => {
    const session = await t.signInAs(['viewer']);
    await expectAlive(session);
    const admin = await t.loginAdmin();
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/users/${session.user.id}`,
      headers: admin.auth,
      payload: {
        email: session.user.email,
        name: session.user.name,
        roles: [t.roleIds.viewer],
        is_active: false,
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    await expectEnded(session);
    expect((await get(`/api/users/${session.user.id}/sessions`, admin.auth)).json()).toEqual({
      sessions: [],
    });
  });

  it('refuses session ids that are not ids', async () => {
    const session = await t.signInAs(['viewer']);
    for (const id of ['%27%20OR%201%3D1', 'a'.repeat(101), '..%2F..%2Fusers', '%00']) {
      const res = await t.app.inject({
        method: 'DELETE',
        url: `/api/auth/sessions/${id}`,
        headers: session.auth,
      });
      expect([404, 422], `${id}: ${res.body}`).toContain(res.statusCode);
    }
    await expectAlive(session);
  });
});
