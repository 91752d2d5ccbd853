import { MESSAGES, SEEDED_ROLES, type AuditListResponse, type LoginResponse } from '@lumi/contract';
import { decodeJwt, SignJWT } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ADMIN,
  cookieValue,
  createTestApp,
  dialects,
  expectError,
  REFRESH_COOKIE,
  TEST_SECRET,
  useTestApp,
  type Session,
} from './helper.js';

describe.each(dialects)('auth on %s', (dialect) => {
  const t = useTestApp(dialect);

  const login = (payload: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: '/api/auth/login', payload: payload as object, headers });
  const me = (session: { auth: { authorization: string } }) =>
    t.app.inject({ method: 'GET', url: '/api/auth/me', headers: session.auth });
  const refreshWithCookie = (token: string) =>
    t.app.inject({ method: 'POST', url: '/api/auth/refresh', cookies: { [REFRESH_COOKIE]: token } });
  const refreshWithBody = (token: string) =>
    t.app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refresh_token: token } });
  const auditEntries = async (action: string) => {
    const admin = await t.loginAdmin();
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/admin/audit-logs?action=${action}&limit=200`,
      headers: admin.auth,
    });
    expect(res.statusCode).toBe(200);
    return res.json<AuditListResponse>().logs;
  };

  describe('POST /api/auth/login', () => {
    it('refuses a body past a few kilobytes on every sign-in route before parsing it (413)', async () => {
      // One JSON object with thousands of unknown keys: cheap to send, costly to parse at 1 MB.
      const keys = Object.fromEntries(Array.from({ length: 2_000 }, (_, i) => [`k${i}`, i]));
      const body = { username: ADMIN.username, password: ADMIN.password, ...keys };
      for (const url of ['/api/auth/login', '/api/auth/refresh', '/api/auth/2fa/verify']) {
        const res = await t.app.inject({ method: 'POST', url, payload: body });
        expectError(res, 413, 'payload_too_large');
      }
      expect((await login({ username: ADMIN.username, password: ADMIN.password })).statusCode).toBe(200);
    });

    it('returns a bearer access token and the user with roles and permissions', async () => {
      const res = await login({ username: ADMIN.username, password: ADMIN.password });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        access_token: expect.any(String),
        token_type: 'bearer',
        expires_in: 900,
        user: {
          id: t.adminId,
          username: 'admin',
          email: 'admin@localhost.localdomain',
          name: 'Administrator',
          role: 'admin',
          roles: [{ id: t.roleIds.admin, name: 'admin', permissions: ['*'] }],
          pending_action: null,
        },
      });
      const token = res.json<LoginResponse>().access_token;
      expect((await me({ auth: { authorization: `Bearer ${token}` } })).statusCode).toBe(200);
    });

    it('sets the refresh token as an HttpOnly, SameSite=Strict cookie limited to /api/auth', async () => {
      const res = await login({ username: ADMIN.username, password: ADMIN.password });
      const cookie = res.cookies.find((c) => c.name === REFRESH_COOKIE);
      expect(cookie).toMatchObject({
        httpOnly: true,
        sameSite: 'Strict',
        path: '/api/auth',
        maxAge: 12 * 3600,
      });
      expect(cookie?.value.length).toBeGreaterThanOrEqual(32);
      // Plain http to localhost: a Secure cookie would be dropped by the browser.
      expect(cookie?.secure).toBeFalsy();
      expect(res.json()).not.toHaveProperty('refresh_token');
    });

    it('marks the cookie Secure when the host is not this machine', async () => {
      const res = await login(
        { username: ADMIN.username, password: ADMIN.password },
        { host: 'admin.example.com' },
      );
      expect(res.statusCode).toBe(200);
      expect(res.cookies.find((c) => c.name === REFRESH_COOKIE)?.secure).toBe(true);
    });

    it('gives roles other than admin their real permissions', async () => {
      const user = await t.createUser({ roles: ['operator'] });
      const res = await login({ username: user.username, password: user.password });
      expect(res.statusCode).toBe(200);
      const operator = SEEDED_ROLES.find((r) => r.name === 'operator')!;
      expect(res.json<LoginResponse>().user).toMatchObject({
        username: user.username,
        email: user.email,
        name: user.name,
        role: 'operator',
        roles: [{ id: t.roleIds.operator, name: 'operator', permissions: [...operator.permissions] }],
      });
    });

    it('returns the refresh token in the body to clients that ask for it', async () => {
      const res = await login({
        username: ADMIN.username,
        password: ADMIN.password,
        refresh_token_in_body: true,
      });
      expect(res.statusCode).toBe(200);
      const body = res.json<LoginResponse>();
      expect(body.refresh_token).toEqual(expect.any(String));
      expect((await refreshWithBody(body.refresh_token!)).statusCode).toBe(200);
    });

    it('answers a wrong password and an unknown username alike', async () => {
      const wrong = await login({ username: ADMIN.username, password: 'Not-the-password-1' });
      const unknown = await login({ username: 'nobody-here', password: 'Not-the-password-1' });
      for (const res of [wrong, unknown]) {
        const body = expectError(res, 401, 'invalid_credentials');
        expect(body.detail).toBe('Invalid username or password');
        expect(cookieValue(res, REFRESH_COOKIE)).toBeUndefined();
      }
    });

    it('does not let an inactive account sign in, even with the right password', async () => {
      const user = await t.createUser({ roles: ['viewer'] });
      const admin = await t.loginAdmin();
      const deactivate = await t.app.inject({
        method: 'PUT',
        url: `/api/users/${user.id}`,
        headers: admin.auth,
        payload: { email: user.email, name: user.name, roles: [t.roleIds.viewer], is_active: false },
      });
      expect(deactivate.statusCode).toBe(200);
      const res = await login({ username: user.username, password: user.password });
      expectError(res, 401, 'invalid_credentials');
      expect(res.json()).not.toHaveProperty('access_token');
      expect(cookieValue(res, REFRESH_COOKIE)).toBeUndefined();
    });

    it('requires a username and a password', async () => {
      const res = await login({ password: 'whatever-1' });
      const body = expectError(res, 422, 'validation_failed');
      expect(body.errors).toContainEqual({ path: 'username', message: MESSAGES.usernameRequired });
      const noPassword = expectError(await login({ username: 'admin' }), 422, 'validation_failed');
      expect(noPassword.errors).toContainEqual({ path: 'password', message: MESSAGES.passwordRequired });
    });
  });

  describe('POST /api/auth/refresh', () => {
    it('exchanges the cookie for a new access token and rotates the cookie', async () => {
      const session = await t.loginAdmin();
      const res = await refreshWithCookie(session.refreshToken);
      expect(res.statusCode).toBe(200);
      const body = res.json<LoginResponse>();
      expect(body).toMatchObject({ token_type: 'bearer', expires_in: 900, user: { username: 'admin' } });
      expect(body).not.toHaveProperty('refresh_token');
      const rotated = res.cookies.find((c) => c.name === REFRESH_COOKIE);
      expect(rotated).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/auth' });
      expect(rotated?.value).toBeTruthy();
      expect(rotated?.value).not.toBe(session.refreshToken);
      expect((await me({ auth: { authorization: `Bearer ${body.access_token}` } })).statusCode).toBe(200);
      // The rotated token works in turn.
      expect((await refreshWithCookie(rotated!.value)).statusCode).toBe(200);
    });

    it('accepts the refresh token in the body and returns its successor there', async () => {
      const session = await t.loginAdmin();
      const res = await refreshWithBody(session.refreshToken);
      expect(res.statusCode).toBe(200);
      const next = res.json<LoginResponse>().refresh_token;
      expect(next).toEqual(expect.any(String));
      expect(next).not.toBe(session.refreshToken);
      expect((await refreshWithBody(next!)).statusCode).toBe(200);
    });

    it('revokes the whole session when a rotated refresh token is presented after its successor was used', async () => {
      const user = await t.createUser({ roles: ['viewer'] });
      const session = await t.login(user.username, user.password);
      const first = await refreshWithCookie(session.refreshToken);
      expect(first.statusCode).toBe(200);
      const second = await refreshWithCookie(cookieValue(first, REFRESH_COOKIE)!);
      expect(second.statusCode).toBe(200);
      const newer = cookieValue(second, REFRESH_COOKIE)!;
      const newerAccess = second.json<LoginResponse>().access_token;
      expect((await me({ auth: { authorization: `Bearer ${newerAccess}` } })).statusCode).toBe(200);

      const replay = await refreshWithCookie(session.refreshToken);
      expectError(replay, 401, 'session_expired');

      // Everything issued for the session stops working, including what the legitimate holder had.
      expectError(await refreshWithCookie(newer), 401, 'session_expired');
      expectError(await me({ auth: { authorization: `Bearer ${newerAccess}` } }), 401);
      expectError(await me(session), 401);

      const reuse = await auditEntries('auth.refresh_reuse');
      expect(reuse).toHaveLength(1);
      expect(reuse[0]).toMatchObject({ action: 'auth.refresh_reuse', user: user.username });
    });

    it('gives a token rotated moments ago another successor while its successor is unused (a lost answer, two tabs)', async () => {
      const session = await t.loginAdmin();
      const [one, two] = await Promise.all([
        refreshWithCookie(session.refreshToken),
        refreshWithCookie(session.refreshToken),
      ]);
      expect([one.statusCode, two.statusCode]).toEqual([200, 200]);
      const [first, second] = [cookieValue(one, REFRESH_COOKIE)!, cookieValue(two, REFRESH_COOKIE)!];
      expect(first).not.toBe(second);
      const again = await refreshWithCookie(session.refreshToken);
      expect(again.statusCode).toBe(200);
      // Either successor carries the session on; none of this counts as theft.
      const next = await refreshWithCookie(second);
      expect(next.statusCode).toBe(200);
      expect((await refreshWithCookie(cookieValue(next, REFRESH_COOKIE)!)).statusCode).toBe(200);
      expect(await auditEntries('auth.refresh_reuse')).toHaveLength(0);
    });

    it('retires the other successor once one is used, so a replay in the grace period never splits the session', async () => {
      for (const used of ['first', 'replayed'] as const) {
        const user = await t.createUser({ roles: ['viewer'] });
        const session = await t.login(user.username, user.password);
        const rotated = await refreshWithCookie(session.refreshToken);
        const replayed = await refreshWithCookie(session.refreshToken);
        expect([rotated.statusCode, replayed.statusCode]).toEqual([200, 200]);
        const successors = {
          first: cookieValue(rotated, REFRESH_COOKIE)!,
          replayed: cookieValue(replayed, REFRESH_COOKIE)!,
        };
        const other = used === 'first' ? successors.replayed : successors.first;

        const next = await refreshWithCookie(successors[used]);
        expect(next.statusCode).toBe(200);
        const access = { auth: { authorization: `Bearer ${next.json<LoginResponse>().access_token}` } };
        expect((await me(access)).statusCode).toBe(200);

        // The sibling is retired: presenting it is reuse, and the whole session ends.
        expectError(await refreshWithCookie(other), 401, 'session_expired');
        expectError(await refreshWithCookie(cookieValue(next, REFRESH_COOKIE)!), 401, 'session_expired');
        expectError(await me(access), 401);
        expect(
          (await auditEntries('auth.refresh_reuse')).filter((e) => e.user === user.username),
        ).toHaveLength(1);
      }
    });

    it('lets only one of two siblings used at the same moment carry the session on', async () => {
      const session = await t.loginAdmin();
      const rotated = await refreshWithCookie(session.refreshToken);
      const replayed = await refreshWithCookie(session.refreshToken);
      const [a, b] = await Promise.all([
        refreshWithCookie(cookieValue(rotated, REFRESH_COOKIE)!),
        refreshWithCookie(cookieValue(replayed, REFRESH_COOKIE)!),
      ]);
      // One wins; the other is a retired token, so the session is revoked and neither chain lives on.
      expect([a.statusCode, b.statusCode].sort()).toEqual([200, 401]);
      const winner = a.statusCode === 200 ? a : b;
      expectError(await refreshWithCookie(cookieValue(winner, REFRESH_COOKIE)!), 401, 'session_expired');
    });

    it('refuses a missing or unknown refresh token', async () => {
      expectError(await t.app.inject({ method: 'POST', url: '/api/auth/refresh' }), 401, 'session_expired');
      expectError(await refreshWithCookie('not-a-real-token'), 401, 'session_expired');
      expectError(await refreshWithBody('not-a-real-token'), 401, 'session_expired');
    });

    it('refuses to refresh the session of a user who was deactivated', async () => {
      const user = await t.createUser({ roles: ['viewer'] });
      const session = await t.login(user.username, user.password);
      const admin = await t.loginAdmin();
      const res = await t.app.inject({
        method: 'PUT',
        url: `/api/users/${user.id}`,
        headers: admin.auth,
        payload: { email: user.email, name: user.name, roles: [t.roleIds.viewer], is_active: false },
      });
      expect(res.statusCode).toBe(200);
      expectError(await refreshWithCookie(session.refreshToken), 401);
    });
  });

  describe('lifetimes', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    /** Moves the clock (Date only) forward; the server reads the time from it. */
    const clock = () => {
      const start = Date.now();
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(start);
      return { advance: (ms: number) => vi.setSystemTime(start + ms) };
    };
    const MINUTE = 60_000;

    it('refuses a correctly signed access token that has no expiry', async () => {
      const session = await t.loginAdmin();
      const { sid, sub } = decodeJwt(session.accessToken);
      const forever = await new SignJWT({ sid })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(String(sub))
        .setIssuer('lumi-admin')
        .setAudience('lumi-admin-api')
        .setIssuedAt()
        .sign(TEST_SECRET);
      expectError(await me({ auth: { authorization: `Bearer ${forever}` } }), 401, 'unauthenticated');
      expect((await me(session)).statusCode).toBe(200);
    });

    it('an access token lasts 15 minutes; the refresh token then gets a new one', async () => {
      const time = clock();
      const session = await t.loginAdmin();
      time.advance(14 * MINUTE);
      expect((await me(session)).statusCode).toBe(200);
      time.advance(16 * MINUTE);
      const expired = expectError(await me(session), 401, 'unauthenticated');
      expect(expired.detail).toBe('Your session has expired. Sign in again.');
      const res = await refreshWithCookie(session.refreshToken);
      expect(res.statusCode).toBe(200);
      const fresh = res.json<LoginResponse>().access_token;
      expect((await me({ auth: { authorization: `Bearer ${fresh}` } })).statusCode).toBe(200);
    });

    it('revokes the session when a rotated refresh token comes back more than 30 s after its rotation', async () => {
      const time = clock();
      const session = await t.loginAdmin();
      const first = await refreshWithCookie(session.refreshToken);
      expect(first.statusCode).toBe(200);
      time.advance(29_000);
      const late = await refreshWithCookie(session.refreshToken);
      expect(late.statusCode).toBe(200);
      time.advance(31_000);
      expectError(await refreshWithCookie(session.refreshToken), 401, 'session_expired');
      expectError(await refreshWithCookie(cookieValue(first, REFRESH_COOKIE)!), 401, 'session_expired');
      expectError(await refreshWithCookie(cookieValue(late, REFRESH_COOKIE)!), 401, 'session_expired');
    });

    it('retires the other successors once one is used, so they pass only within the 30 s after', async () => {
      const time = clock();
      const session = await t.loginAdmin();
      const first = cookieValue(await refreshWithCookie(session.refreshToken), REFRESH_COOKIE)!;
      const second = cookieValue(await refreshWithCookie(session.refreshToken), REFRESH_COOKIE)!;
      const next = await refreshWithCookie(second);
      expect(next.statusCode).toBe(200);
      time.advance(31_000);
      expectError(await refreshWithCookie(first), 401, 'session_expired');
    });

    it('a session ends 12 hours after sign-in, however often it was refreshed', async () => {
      const time = clock();
      const session = await t.loginAdmin();
      let refreshToken = session.refreshToken;
      for (const hours of [4, 8, 11.5]) {
        time.advance(hours * 60 * MINUTE);
        const res = await refreshWithCookie(refreshToken);
        expect(res.statusCode, `refresh after ${hours} h`).toBe(200);
        refreshToken = cookieValue(res, REFRESH_COOKIE)!;
      }
      time.advance(12 * 60 * MINUTE + MINUTE);
      expectError(await refreshWithCookie(refreshToken), 401, 'session_expired');
    });
  });

  describe('reusing a checked sign-in (LUMI_AUTH_CACHE_SECONDS)', () => {
    /** Ends every session in the database directly, as another instance sharing it would. */
    const endSessionsElsewhere = (app: typeof t.app) =>
      app.db
        .updateTable('sessions')
        .set({ revoked_at: new Date().toISOString(), revoked_reason: 'logout' })
        .execute();

    it('notices a session ended by another instance within the cache time', async () => {
      let now = Date.now();
      const own = await createTestApp({ dialect, app: { now: () => now } });
      try {
        const session = await own.loginAdmin();
        const meOf = () => own.app.inject({ method: 'GET', url: '/api/auth/me', headers: session.auth });
        expect((await meOf()).statusCode).toBe(200);
        await endSessionsElsewhere(own.app);
        // This instance was not told: it still trusts what it checked less than 5 seconds ago…
        now += 4_999;
        expect((await meOf()).statusCode).toBe(200);
        // …and no longer.
        now += 1;
        expectError(await meOf(), 401, 'unauthenticated');
      } finally {
        await own.close();
      }
    });

    it('checks the session on every request when set to 0', async () => {
      const own = await createTestApp({ dialect, app: { authCacheSeconds: 0 } });
      try {
        const session = await own.loginAdmin();
        const meOf = () => own.app.inject({ method: 'GET', url: '/api/auth/me', headers: session.auth });
        expect((await meOf()).statusCode).toBe(200);
        await endSessionsElsewhere(own.app);
        expectError(await meOf(), 401, 'unauthenticated');
      } finally {
        await own.close();
      }
    });
  });

  describe('POST /api/auth/logout', () => {
    it('revokes the session and clears the cookie', async () => {
      const session = await t.loginAdmin();
      expect((await me(session)).statusCode).toBe(200);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/logout',
        headers: session.auth,
        cookies: { [REFRESH_COOKIE]: session.refreshToken },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ ok: true });
      const cleared = res.cookies.find((c) => c.name === REFRESH_COOKIE);
      expect(cleared?.value).toBe('');
      expect(cleared?.path).toBe('/api/auth');

      expectError(await me(session), 401, 'unauthenticated');
      expectError(await refreshWithCookie(session.refreshToken), 401, 'session_expired');
      expect(await auditEntries('auth.logout')).toEqual([expect.objectContaining({ user: 'admin' })]);
    });

    it('revokes the session named by the cookie alone (an expired access token)', async () => {
      const session = await t.loginAdmin();
      expect((await me(session)).statusCode).toBe(200);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/logout',
        cookies: { [REFRESH_COOKIE]: session.refreshToken },
      });
      expect(res.statusCode).toBe(200);
      expectError(await refreshWithCookie(session.refreshToken), 401);
      expectError(await me(session), 401);
    });

    it('ends only its own session', async () => {
      const first = await t.loginAdmin();
      const second = await t.loginAdmin();
      expect((await me(first)).statusCode).toBe(200);
      expect((await me(second)).statusCode).toBe(200);
      await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: first.auth });
      expect((await me(first)).statusCode).toBe(401);
      expect((await me(second)).statusCode).toBe(200);
    });

    it.each([
      {
        name: 'a form on another site',
        headers: { origin: 'https://evil.example', 'content-type': 'text/plain' },
      },
      {
        name: 'a cross-site fetch',
        headers: { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' },
      },
      { name: 'a same-site page on another origin', headers: { 'sec-fetch-site': 'same-site' } },
      { name: 'an opaque origin', headers: { origin: 'null' } },
    ])('refuses a sign-out from $name and keeps the session', async ({ headers }) => {
      const session = await t.loginAdmin();
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/logout',
        headers,
        cookies: { [REFRESH_COOKIE]: session.refreshToken },
        payload: 'x=1',
      });
      expect(expectError(res, 403, 'forbidden').detail).toBe(
        'This request came from another site; sign in and out from the console itself',
      );
      expect(res.cookies.find((c) => c.name === REFRESH_COOKIE)).toBeUndefined();
      expect((await refreshWithCookie(session.refreshToken)).statusCode).toBe(200);
    });

    it('signs out a request from the console itself', async () => {
      const session = await t.loginAdmin();
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/logout',
        headers: { origin: 'http://localhost:80', 'sec-fetch-site': 'same-origin', ...session.auth },
        cookies: { [REFRESH_COOKIE]: session.refreshToken },
      });
      expect(res.statusCode).toBe(200);
      expectError(await refreshWithCookie(session.refreshToken), 401);
    });

    it('answers 200 without a session', async () => {
      const res = await t.app.inject({ method: 'POST', url: '/api/auth/logout' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ ok: true });
    });
  });

  describe('POST /api/auth/change-password', () => {
    const change = (session: Session, payload: object) =>
      t.app.inject({ method: 'POST', url: '/api/auth/change-password', headers: session.auth, payload });

    it('checks the current password', async () => {
      const session = await t.loginAdmin();
      const res = await change(session, {
        current_password: 'Not-the-password-1',
        new_password: 'A-brand-new-pass-7',
        confirm_password: 'A-brand-new-pass-7',
      });
      const body = expectError(res, 422, 'validation_failed');
      expect(body.errors).toEqual([{ path: 'current_password', message: 'Current password is incorrect' }]);
      // The password did not change.
      await t.loginAdmin();
    });

    it('refuses a common password', async () => {
      const session = await t.loginAdmin();
      const res = await change(session, {
        current_password: ADMIN.password,
        new_password: 'password123',
        confirm_password: 'password123',
      });
      const body = expectError(res, 422, 'validation_failed');
      expect(body.errors).toEqual([{ path: 'new_password', message: MESSAGES.passwordCommon }]);
      expect(body.detail).toBe(MESSAGES.passwordCommon);
    });

    it.each([
      [{ new_password: 'short', confirm_password: 'short' }, 'new_password', MESSAGES.passwordMin],
      [
        { new_password: 'A-brand-new-pass-7', confirm_password: 'Different-pass-7' },
        'confirm_password',
        MESSAGES.passwordsMismatch,
      ],
      [{ confirm_password: 'A-brand-new-pass-7' }, 'new_password', MESSAGES.newPasswordRequired],
    ])('validates the new password (%o)', async (fields, path, message) => {
      const session = await t.loginAdmin();
      const body = expectError(await change(session, { current_password: ADMIN.password, ...fields }), 422);
      expect(body.errors).toContainEqual({ path, message });
    });

    it('changes the password and ends every other session but keeps the current one', async () => {
      const current = await t.loginAdmin();
      const other = await t.loginAdmin();
      expect((await me(other)).statusCode).toBe(200);
      const res = await change(current, {
        current_password: ADMIN.password,
        new_password: 'A-brand-new-pass-7',
        confirm_password: 'A-brand-new-pass-7',
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ ok: true });

      expect((await me(current)).statusCode).toBe(200);
      expect((await refreshWithCookie(current.refreshToken)).statusCode).toBe(200);
      expectError(await me(other), 401);
      expectError(await refreshWithCookie(other.refreshToken), 401);

      expectError(await login({ username: ADMIN.username, password: ADMIN.password }), 401);
      expect((await login({ username: ADMIN.username, password: 'A-brand-new-pass-7' })).statusCode).toBe(
        200,
      );
    });
  });

  describe('profile and me', () => {
    it('GET /api/auth/profile returns the signed-in user’s profile', async () => {
      const user = await t.createUser({ roles: ['viewer'] });
      const session = await t.login(user.username, user.password);
      const res = await t.app.inject({ method: 'GET', url: '/api/auth/profile', headers: session.auth });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        id: user.id,
        username: user.username,
        email: user.email,
        name: user.name,
        two_factor_enabled: false,
      });
    });

    it('PUT /api/auth/profile changes name and email but never the username', async () => {
      const user = await t.createUser({ roles: ['viewer'] });
      const session = await t.login(user.username, user.password);
      const res = await t.app.inject({
        method: 'PUT',
        url: '/api/auth/profile',
        headers: session.auth,
        payload: { name: 'New Name', email: 'new.address@example.test', username: 'hijacked' },
      });
      expect(res.statusCode).toBe(200);
      const expected = {
        id: user.id,
        username: user.username,
        email: 'new.address@example.test',
        name: 'New Name',
        two_factor_enabled: false,
      };
      expect(res.json()).toEqual(expected);
      const again = await t.app.inject({ method: 'GET', url: '/api/auth/profile', headers: session.auth });
      expect(again.json()).toEqual(expected);
      const { two_factor_enabled: _twoFactor, ...identity } = expected;
      expect((await me(session)).json()).toMatchObject(identity);
      // Signing in still works with the unchanged username.
      await t.login(user.username, user.password);
    });

    it('PUT /api/auth/profile changes only the fields sent', async () => {
      const user = await t.createUser({ roles: ['viewer'] });
      const session = await t.login(user.username, user.password);
      const res = await t.app.inject({
        method: 'PUT',
        url: '/api/auth/profile',
        headers: session.auth,
        payload: { name: 'Only The Name' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        id: user.id,
        username: user.username,
        email: user.email,
        name: 'Only The Name',
        two_factor_enabled: false,
      });
    });

    it.each([
      [{ name: '   ' }, 'name', MESSAGES.nameRequired],
      [{ email: '' }, 'email', MESSAGES.emailRequired],
      [{ email: 'not-an-email' }, 'email', MESSAGES.emailInvalid],
    ])('PUT /api/auth/profile validates %o', async (payload, path, message) => {
      const session = await t.loginAdmin();
      const res = await t.app.inject({
        method: 'PUT',
        url: '/api/auth/profile',
        headers: session.auth,
        payload,
      });
      expect(expectError(res, 422, 'validation_failed').errors).toContainEqual({ path, message });
    });

    it('PUT /api/auth/profile refuses an email another user has', async () => {
      const other = await t.createUser({ roles: ['viewer'] });
      const session = await t.loginAdmin();
      const res = await t.app.inject({
        method: 'PUT',
        url: '/api/auth/profile',
        headers: session.auth,
        payload: { email: other.email.toUpperCase() },
      });
      expectError(res, 409, 'conflict');
    });

    it('GET /api/auth/me returns the signed-in user with roles and permissions', async () => {
      const session = await t.signInAs(['viewer']);
      const res = await me(session);
      expect(res.statusCode).toBe(200);
      const viewer = SEEDED_ROLES.find((r) => r.name === 'viewer')!;
      expect(res.json()).toEqual({
        id: session.user.id,
        username: session.user.username,
        email: session.user.email,
        name: session.user.name,
        role: 'viewer',
        roles: [{ id: t.roleIds.viewer, name: 'viewer', permissions: [...viewer.permissions] }],
        pending_action: null,
      });
    });

    it('GET /api/auth/me needs a valid access token', async () => {
      const none = expectError(
        await t.app.inject({ method: 'GET', url: '/api/auth/me' }),
        401,
        'unauthenticated',
      );
      expect(none.detail).toBe('Sign in to continue');
      expectError(await me({ auth: { authorization: 'Bearer not.a.jwt' } }), 401, 'unauthenticated');
      const session = await t.loginAdmin();
      // A token whose signature does not match (the payload was altered).
      const [header, payload, signature] = session.accessToken.split('.');
      const forged = `${header}.${payload}x.${signature}`;
      expectError(await me({ auth: { authorization: `Bearer ${forged}` } }), 401, 'unauthenticated');
      // The refresh token is not an access token.
      expectError(await me({ auth: { authorization: `Bearer ${session.refreshToken}` } }), 401);
    });
  });
});

describe.each(dialects)('refresh token reuse within one millisecond on %s', (dialect) => {
  // Every rotation at the same instant: reuse is told by which token came after, not by rotation times.
  const t = useTestApp(dialect, { app: { now: () => Date.parse('2026-11-20T12:00:00.000Z') } });
  const refresh = (token: string) =>
    t.app.inject({ method: 'POST', url: '/api/auth/refresh', cookies: { [REFRESH_COOKIE]: token } });

  it('still revokes the session when a token is presented after its successor was used', async () => {
    const session = await t.loginAdmin();
    const first = await refresh(session.refreshToken);
    expect(first.statusCode).toBe(200);
    const second = await refresh(cookieValue(first, REFRESH_COOKIE)!);
    expect(second.statusCode).toBe(200);
    expectError(await refresh(session.refreshToken), 401, 'session_expired');
    expectError(await refresh(cookieValue(second, REFRESH_COOKIE)!), 401, 'session_expired');
  });

  it('still gives a token rotated moments ago another successor while none of its successors was used', async () => {
    const session = await t.loginAdmin();
    expect((await refresh(session.refreshToken)).statusCode).toBe(200);
    const again = await refresh(session.refreshToken);
    expect(again.statusCode).toBe(200);
    expect((await refresh(cookieValue(again, REFRESH_COOKIE)!)).statusCode).toBe(200);
  });
});
