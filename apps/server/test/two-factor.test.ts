import { createHash } from 'node:crypto';
import type {
  AuditListResponse,
  LoginResponse,
  Role,
  TwoFactorSetupResponse,
  TwoFactorStatus,
  User,
} from '@lumi/contract';
import { describe, expect, it } from 'vitest';
import { ADMIN, cookieValue, dialects, expectError, REFRESH_COOKIE, useTestApp } from './helper.js';
import { bearer, codeAt, enrol, passwordStep, stepStart, verify } from './two-factor-helper.js';

describe.each(dialects)('two-factor sign-in on %s', (dialect) => {
  // A clock the test moves: codes are computed for it, and the server checks them against it.
  const start = stepStart(Date.now()) + 5_000;
  let now = start;
  const t = useTestApp(dialect, { app: { now: () => now } });

  const get = (url: string, auth: Record<string, string>) =>
    t.app.inject({ method: 'GET', url, headers: auth });
  const post = (url: string, auth: Record<string, string>, payload?: object) =>
    t.app.inject({ method: 'POST', url, headers: auth, payload });

  /** A viewer with two-factor sign-in on; the clock is one step on, so the enrolment's code is spent. */
  const enrolledUser = async () => {
    now = start;
    const session = await t.signInAs(['viewer']);
    const enrolled = await enrol(t.app, session.auth, now);
    now += 30_000;
    return { ...session, ...enrolled };
  };

  const auditActions = async (action: string) => {
    const admin = await t.loginAdmin();
    const res = await get(`/api/admin/audit-logs?action=${action}&limit=200`, admin.auth);
    return res.json<AuditListResponse>().logs;
  };

  describe('enrolment', () => {
    it('hands out a pending secret, enables it with a code and answers ten recovery codes once', async () => {
      now = start;
      const session = await t.signInAs(['viewer']);
      const before = await get('/api/auth/2fa', session.auth);
      expect(before.json()).toEqual({
        enabled: false,
        enabled_at: null,
        pending: false,
        recovery_codes_left: 0,
        required: false,
      });

      const setup = await post('/api/auth/2fa/setup', session.auth);
      expect(setup.statusCode, setup.body).toBe(200);
      const { secret, otpauth_url } = setup.json<TwoFactorSetupResponse>();
      expect(secret).toMatch(/^[A-Z2-7]{32}$/);
      const url = new URL(otpauth_url);
      expect(url.protocol).toBe('otpauth:');
      expect(url.searchParams.get('secret')).toBe(secret);
      expect(url.searchParams.get('issuer')).toBe('Lumi Admin');
      expect(decodeURIComponent(url.pathname)).toContain(session.user.username);
      expect((await get('/api/auth/2fa', session.auth)).json<TwoFactorStatus>().pending).toBe(true);

      // The secret is sealed at rest: the database never holds it in the clear.
      const row = await t.app.db
        .selectFrom('users')
        .select(['totp_secret', 'totp_pending_secret'])
        .where('id', '=', session.user.id)
        .executeTakeFirstOrThrow();
      expect(row.totp_secret).toBeNull();
      expect(row.totp_pending_secret).not.toContain(secret);

      const wrong = String((Number(codeAt(secret, now)) + 1) % 1_000_000).padStart(6, '0');
      const refused = expectError(
        await post('/api/auth/2fa/enable', session.auth, { code: wrong }),
        422,
        'validation_failed',
      );
      expect(refused.errors).toEqual([{ path: 'code', message: expect.stringMatching(/not valid/) }]);

      const enabled = await post('/api/auth/2fa/enable', session.auth, { code: codeAt(secret, now) });
      expect(enabled.statusCode, enabled.body).toBe(200);
      const codes = enabled.json<{ recovery_codes: string[] }>().recovery_codes;
      expect(codes).toHaveLength(10);
      expect(new Set(codes).size).toBe(10);
      for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);

      const status = (await get('/api/auth/2fa', session.auth)).json<TwoFactorStatus>();
      expect(status).toMatchObject({ enabled: true, pending: false, recovery_codes_left: 10 });
      expect(JSON.stringify(status)).not.toContain(secret);
      // Neither a second enable nor a new setup hands the secret or new codes out again.
      expectError(await post('/api/auth/2fa/enable', session.auth, { code: codeAt(secret, now) }), 409);
      expectError(await post('/api/auth/2fa/setup', session.auth), 409, 'conflict');
      const stored = await t.app.db
        .selectFrom('recovery_codes')
        .select('code_hash')
        .where('user_id', '=', session.user.id)
        .execute();
      expect(stored).toHaveLength(10);
      for (const { code_hash } of stored) for (const code of codes) expect(code_hash).not.toContain(code);
      // Keyed (an HMAC under LUMI_SECRET), so a copy of the database cannot be searched for the codes.
      const unkeyed = codes.map((code) => createHash('sha256').update(code.replace('-', '')).digest('hex'));
      for (const { code_hash } of stored) expect(unkeyed).not.toContain(code_hash);

      expect((await get('/api/auth/profile', session.auth)).json()).toMatchObject({
        two_factor_enabled: true,
      });
      const admin = await t.loginAdmin();
      const user = (await get(`/api/users/${session.user.id}`, admin.auth)).json<User>();
      expect(user.two_factor_enabled).toBe(true);
      expect((await auditActions('auth.two_factor_setup')).length).toBe(1);
      expect((await auditActions('auth.two_factor_enabled'))[0]).toMatchObject({
        user: session.user.username,
        resource_id: String(session.user.id),
      });
    });

    it('enable without a setup is a conflict, and a new setup replaces the pending secret', async () => {
      now = start;
      const session = await t.signInAs(['viewer']);
      expectError(await post('/api/auth/2fa/enable', session.auth, { code: '123456' }), 409, 'conflict');
      const first = (await post('/api/auth/2fa/setup', session.auth)).json<TwoFactorSetupResponse>().secret;
      const second = (await post('/api/auth/2fa/setup', session.auth)).json<TwoFactorSetupResponse>().secret;
      expect(second).not.toBe(first);
      expectError(
        await post('/api/auth/2fa/enable', session.auth, { code: codeAt(first, now) }),
        422,
        'validation_failed',
      );
      expect(
        (await post('/api/auth/2fa/enable', session.auth, { code: codeAt(second, now) })).statusCode,
      ).toBe(200);
    });

    it('two enables racing with one code leave one set of recovery codes', async () => {
      now = start;
      const session = await t.signInAs(['viewer']);
      const { secret } = (await post('/api/auth/2fa/setup', session.auth)).json<TwoFactorSetupResponse>();
      const results = await Promise.all(
        Array.from({ length: 4 }, () =>
          post('/api/auth/2fa/enable', session.auth, { code: codeAt(secret, now) }),
        ),
      );
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409]);
      const winner = results.find((r) => r.statusCode === 200)!.json<{ recovery_codes: string[] }>();
      now += 30_000;
      const challenge = await passwordStep(t.app, session.user.username, session.user.password);
      const res = await verify(t.app, { challenge, recovery_code: winner.recovery_codes[0]! });
      expect(res.statusCode, res.body).toBe(200);
    });

    it('limits wrong setup codes in a count of their own, which never locks anyone out of signing in', async () => {
      now = start;
      const session = await t.signInAs(['viewer']);
      const { secret } = (await post('/api/auth/2fa/setup', session.auth)).json<TwoFactorSetupResponse>();
      const wrong = String((Number(codeAt(secret, now)) + 1) % 1_000_000).padStart(6, '0');
      for (let i = 0; i < 10; i++) {
        expectError(await post('/api/auth/2fa/enable', session.auth, { code: wrong }), 422);
      }
      const limited = await post('/api/auth/2fa/enable', session.auth, { code: codeAt(secret, now) });
      expect(expectError(limited, 429).detail).toMatch(/^Too many wrong codes\. Try again in 15 minutes\.$/);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);

      // Thirty wrong codes from the address (three users) leave signing in from it open.
      for (let user = 0; user < 2; user++) {
        const other = await t.signInAs(['viewer']);
        await post('/api/auth/2fa/setup', other.auth);
        for (let i = 0; i < 10; i++) {
          expectError(await post('/api/auth/2fa/enable', other.auth, { code: wrong }), 422);
        }
      }
      await t.login(session.user.username, session.user.password);
      await t.loginAdmin();

      // The window passes: the right code enables it, and the count starts again.
      now += 15 * 60 * 1000 + 1_000;
      const enabled = await post('/api/auth/2fa/enable', session.auth, { code: codeAt(secret, now) });
      expect(enabled.statusCode, enabled.body).toBe(200);
    });
  });

  describe('sign-in with a second step', () => {
    it('answers a challenge without a token, and the code completes the sign-in as a sign-in does', async () => {
      const user = await enrolledUser();
      const challenge = await passwordStep(t.app, user.user.username, user.user.password);
      const res = await verify(t.app, { challenge, code: codeAt(user.secret, now) });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json<LoginResponse>();
      expect(body).toEqual({
        access_token: expect.any(String),
        token_type: 'bearer',
        expires_in: 900,
        user: expect.objectContaining({ id: user.user.id, pending_action: null }),
      });
      const refreshToken = cookieValue(res, REFRESH_COOKIE);
      expect(refreshToken).toBeDefined();
      expect((await get('/api/auth/me', bearer(res))).statusCode).toBe(200);
      const refreshed = await t.app.inject({
        method: 'POST',
        url: '/api/auth/refresh',
        cookies: { [REFRESH_COOKIE]: refreshToken! },
      });
      expect(refreshed.statusCode).toBe(200);

      // The challenge is used up.
      now += 30_000;
      expectError(
        await verify(t.app, { challenge, code: codeAt(user.secret, now) }),
        401,
        'challenge_expired',
      );
      const logins = await auditActions('auth.login');
      expect(
        logins.find((l) => l.user === user.user.username && (l.new_value as { method?: string }).method),
      ).toMatchObject({ new_value: { username: user.user.username, method: 'totp' } });
      // The right password is audited on its own, so a second step that never comes is seen too.
      expect(await auditActions('auth.two_factor_challenged')).toEqual([
        expect.objectContaining({ user: user.user.username, new_value: { username: user.user.username } }),
      ]);
    });

    it('a wrong code keeps the challenge for another try and is audited', async () => {
      const user = await enrolledUser();
      const challenge = await passwordStep(t.app, user.user.username, user.user.password);
      const wrong = await verify(t.app, { challenge, code: codeAt(user.secret, now + 10 * 60_000) });
      expect(expectError(wrong, 401, 'invalid_credentials').detail).toMatch(/not valid/);
      expect((await verify(t.app, { challenge, code: codeAt(user.secret, now) })).statusCode).toBe(200);
      expect(await auditActions('auth.two_factor_failed')).toEqual([
        expect.objectContaining({ new_value: { username: user.user.username, reason: 'invalid_code' } }),
      ]);
    });

    it('accepts the neighbouring steps for clock drift, but never a code twice nor an older one', async () => {
      const user = await enrolledUser();
      const first = await passwordStep(t.app, user.user.username, user.user.password);
      // The code of the next step (the phone's clock runs ahead) is accepted...
      expect(
        (await verify(t.app, { challenge: first, code: codeAt(user.secret, now + 30_000) })).statusCode,
      ).toBe(200);
      // ...and then neither it again, nor the current step's code, which is older.
      for (const code of [codeAt(user.secret, now + 30_000), codeAt(user.secret, now)]) {
        const challenge = await passwordStep(t.app, user.user.username, user.user.password);
        const replay = expectError(await verify(t.app, { challenge, code }), 401, 'invalid_credentials');
        expect(replay.detail).toMatch(/used already/);
      }
      // A code from two steps away is not valid at all.
      const challenge = await passwordStep(t.app, user.user.username, user.user.password);
      expect(
        expectError(await verify(t.app, { challenge, code: codeAt(user.secret, now - 60_000) }), 401).detail,
      ).toMatch(/not valid/);
      now += 60_000;
      expect((await verify(t.app, { challenge, code: codeAt(user.secret, now) })).statusCode).toBe(200);
      const reasons = (await auditActions('auth.two_factor_failed')).map(
        (l) => (l.new_value as { reason: string }).reason,
      );
      expect(reasons.sort()).toEqual(['invalid_code', 'replayed_code', 'replayed_code']);
    });

    it('one code presented by parallel requests signs in exactly once', async () => {
      const user = await enrolledUser();
      const challenges = [];
      for (let i = 0; i < 4; i += 1) {
        challenges.push(await passwordStep(t.app, user.user.username, user.user.password));
      }
      const code = codeAt(user.secret, now);
      const results = await Promise.all(challenges.map((challenge) => verify(t.app, { challenge, code })));
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 401, 401, 401]);
      const sessions = await t.app.db
        .selectFrom('sessions')
        .select('id')
        .where('user_id', '=', user.user.id)
        .where('revoked_at', 'is', null)
        .execute();
      // The enrolment's own session and the one sign-in.
      expect(sessions).toHaveLength(2);
    });

    it('one challenge presented in parallel with a code and a recovery code signs in once', async () => {
      const user = await enrolledUser();
      const challenge = await passwordStep(t.app, user.user.username, user.user.password);
      const results = await Promise.all([
        verify(t.app, { challenge, code: codeAt(user.secret, now) }),
        verify(t.app, { challenge, recovery_code: user.recoveryCodes[0]! }),
        verify(t.app, { challenge, recovery_code: user.recoveryCodes[1]! }),
      ]);
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 401, 401]);
      for (const r of results.filter((r) => r.statusCode === 401)) {
        expect(r.json()).toMatchObject({ code: 'challenge_expired' });
      }
      // The losers' codes were not spent: the transaction that lost the challenge rolled them back.
      const left = (await get('/api/auth/2fa', user.auth)).json<TwoFactorStatus>().recovery_codes_left;
      expect(left).toBe(results[0]!.statusCode === 200 ? 10 : 9);
    });

    it('a challenge expires after five minutes', async () => {
      const user = await enrolledUser();
      const challenge = await passwordStep(t.app, user.user.username, user.user.password);
      now += 5 * 60_000 + 1;
      expectError(
        await verify(t.app, { challenge, code: codeAt(user.secret, now) }),
        401,
        'challenge_expired',
      );
    });

    it('throttles codes like passwords, and a correct password again does not reset the count', async () => {
      const user = await enrolledUser();
      const wrong = codeAt(user.secret, now + 10 * 60_000);
      for (let i = 0; i < 5; i += 1) {
        // A new password step for some of the tries: it must not give the codes a fresh count.
        const challenge = await passwordStep(t.app, user.user.username, user.user.password, `10.0.0.${i}`);
        expectError(
          await verify(t.app, { challenge, code: wrong }, `10.0.0.${i}`),
          401,
          'invalid_credentials',
        );
      }
      const challenge = await passwordStep(t.app, user.user.username, user.user.password, '10.0.1.1');
      const throttled = await verify(t.app, { challenge, code: codeAt(user.secret, now) }, '10.0.1.1');
      expectError(throttled, 429, 'too_many_requests');
      expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0);
      // The window passes: the right code works, and the challenge's own five minutes are long gone.
      now += 15 * 60_000 + 1_000;
      const fresh = await passwordStep(t.app, user.user.username, user.user.password, '10.0.1.1');
      expect(
        (await verify(t.app, { challenge: fresh, code: codeAt(user.secret, now) }, '10.0.1.1')).statusCode,
      ).toBe(200);
    });

    it('parallel wrong codes get at most five checks', async () => {
      const user = await enrolledUser();
      const challenge = await passwordStep(t.app, user.user.username, user.user.password);
      const wrong = codeAt(user.secret, now + 10 * 60_000);
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, i) => verify(t.app, { challenge, code: wrong }, `10.0.2.${i}`)),
      );
      const statuses = results.map((r) => r.statusCode);
      expect(statuses.filter((s) => s === 401)).toHaveLength(5);
      expect(statuses.filter((s) => s === 429)).toHaveLength(7);
    });
  });

  describe('recovery codes', () => {
    it('each signs in once, in any case and with or without the dash', async () => {
      const user = await enrolledUser();
      const code = user.recoveryCodes[3]!;
      const first = await passwordStep(t.app, user.user.username, user.user.password);
      const typed = ` ${code.replace('-', '').toUpperCase()} `;
      const res = await verify(t.app, { challenge: first, recovery_code: typed });
      expect(res.statusCode, res.body).toBe(200);
      expect((await get('/api/auth/2fa', user.auth)).json<TwoFactorStatus>().recovery_codes_left).toBe(9);
      const second = await passwordStep(t.app, user.user.username, user.user.password);
      expectError(
        await verify(t.app, { challenge: second, recovery_code: code }),
        401,
        'invalid_credentials',
      );
      const logins = await auditActions('auth.login');
      expect(logins.some((l) => (l.new_value as { method?: string }).method === 'recovery_code')).toBe(true);
    });

    it('one recovery code presented by parallel requests signs in exactly once', async () => {
      const user = await enrolledUser();
      const challenges = [];
      for (let i = 0; i < 5; i += 1) {
        challenges.push(await passwordStep(t.app, user.user.username, user.user.password));
      }
      const code = user.recoveryCodes[0]!;
      const results = await Promise.all(
        challenges.map((challenge, i) => verify(t.app, { challenge, recovery_code: code }, `10.0.3.${i}`)),
      );
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 401, 401, 401, 401]);
      expect((await get('/api/auth/2fa', user.auth)).json<TwoFactorStatus>().recovery_codes_left).toBe(9);
    });
  });

  describe('turning it off', () => {
    it('needs the password and a code or a recovery code', async () => {
      const user = await enrolledUser();
      const disable = (payload: object) => post('/api/auth/2fa/disable', user.auth, payload);
      const badPassword = expectError(
        await disable({ password: 'Not-the-password-1', code: codeAt(user.secret, now) }),
        422,
      );
      expect(badPassword.errors).toEqual([{ path: 'password', message: 'Password is incorrect' }]);
      const badCode = expectError(
        await disable({ password: user.user.password, code: codeAt(user.secret, now + 10 * 60_000) }),
        422,
      );
      expect(badCode.errors?.[0]?.path).toBe('code');
      const res = await disable({ password: user.user.password, recovery_code: user.recoveryCodes[9]! });
      expect(res.statusCode, res.body).toBe(200);
      expect((await get('/api/auth/2fa', user.auth)).json()).toMatchObject({
        enabled: false,
        recovery_codes_left: 0,
      });
      // The next sign-in has no second step.
      expect((await t.login(user.user.username, user.user.password)).body.access_token).toEqual(
        expect.any(String),
      );
      expectError(await disable({ password: user.user.password, code: '123456' }), 409, 'conflict');
      expect(await auditActions('auth.two_factor_disabled')).toHaveLength(1);
      const failures = (await auditActions('auth.two_factor_failed')).map(
        (l) => (l.new_value as { reason: string }).reason,
      );
      expect(failures.sort()).toEqual(['invalid_code', 'invalid_password', 'not_enabled']);
    });
  });

  describe('a role that requires two-factor sign-in', () => {
    const requireFor = async (roleId: number, require = true) => {
      const admin = await t.loginAdmin();
      const role = (await get('/api/roles', admin.auth)).json<Role[]>().find((r) => r.id === roleId)!;
      const res = await t.app.inject({
        method: 'PUT',
        url: `/api/roles/${roleId}`,
        headers: admin.auth,
        payload: {
          name: role.name,
          description: role.description,
          permissions: role.permissions,
          require_two_factor: require,
        },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<Role>().require_two_factor).toBe(require);
      return res.json<Role>();
    };

    it('sends its users to enrol first and refuses every other route until they have', async () => {
      now = start;
      const session = await t.signInAs(['operator']);
      await requireFor(t.roleIds.operator);
      // Signed-in sessions are held to it at once, and so is a new sign-in.
      expectError(await get('/api/admin/api/config/quirks', session.auth), 403, 'two_factor_setup_required');
      const login = await t.login(session.user.username, session.user.password);
      expect(login.body).toMatchObject({
        two_factor_setup_required: true,
        user: { pending_action: 'two_factor_setup' },
      });

      const open = new Set(['GET /api/auth/me', 'GET /api/auth/profile', 'GET /api/auth/2fa']);
      for (const route of t.app.routeCatalogue) {
        const key = `${route.method} ${route.url}`;
        if (route.permission === 'public' || route.permission === 'api-key' || route.allowPending) continue;
        const res = await t.app.inject({
          method: route.method as 'GET',
          url: route.url.replace(':id', '1'),
          headers: login.auth,
        });
        const body = expectError(res, 403, 'two_factor_setup_required');
        expect(body.detail, key).toMatch(/two-factor/);
      }
      for (const url of open) expect((await get(url.split(' ')[1]!, login.auth)).statusCode, url).toBe(200);
      expect((await get('/api/auth/2fa', login.auth)).json<TwoFactorStatus>().required).toBe(true);

      await enrol(t.app, login.auth, now);
      expect((await get('/api/admin/api/config/quirks', login.auth)).statusCode).toBe(200);
      expect((await get('/api/auth/me', login.auth)).json()).toMatchObject({ pending_action: null });
      // It cannot be turned off while the role requires it.
      expectError(
        await post('/api/auth/2fa/disable', login.auth, { password: session.user.password, code: '123456' }),
        403,
        'forbidden',
      );
      const updates = await auditActions('role.updated');
      expect(updates[0]).toMatchObject({
        old_value: expect.objectContaining({ require_two_factor: false }),
        new_value: expect.objectContaining({ require_two_factor: true }),
      });
    });

    it('the built-in admin role may require it, but its grants still cannot change', async () => {
      const role = await requireFor(t.roleIds.admin);
      expect(role).toMatchObject({ name: 'admin', permissions: ['*'], built_in: true });
      const admin = await t.loginAdmin();
      expect(admin.body.two_factor_setup_required).toBe(true);
      expectError(
        await t.app.inject({
          method: 'PUT',
          url: `/api/roles/${t.roleIds.admin}`,
          headers: admin.auth,
          payload: { name: 'admin', permissions: ['users:read'], require_two_factor: false },
        }),
        403,
        'two_factor_setup_required',
      );
    });

    it('an update that leaves the field out keeps it', async () => {
      await requireFor(t.roleIds.viewer);
      const admin = await t.loginAdmin();
      const viewer = (await get('/api/roles', admin.auth)).json<Role[]>().find((r) => r.name === 'viewer')!;
      const res = await t.app.inject({
        method: 'PUT',
        url: `/api/roles/${viewer.id}`,
        headers: admin.auth,
        payload: { name: 'viewer', description: 'Changed', permissions: viewer.permissions },
      });
      expect(res.json<Role>()).toMatchObject({ description: 'Changed', require_two_factor: true });
    });
  });

  describe('admin reset', () => {
    it('turns a user’s two-factor sign-in off, audited; not one’s own', async () => {
      const user = await enrolledUser();
      const admin = await t.loginAdmin();
      const res = await post(`/api/users/${user.user.id}/2fa/reset`, admin.auth);
      expect(res.statusCode, res.body).toBe(200);
      expect((await t.login(user.user.username, user.user.password)).body.access_token).toEqual(
        expect.any(String),
      );
      expect(await auditActions('user.two_factor_reset')).toEqual([
        expect.objectContaining({
          user: ADMIN.username,
          resource_id: String(user.user.id),
          old_value: { two_factor: true },
        }),
      ]);
      expectError(await post(`/api/users/${t.adminId}/2fa/reset`, admin.auth), 403, 'forbidden');
      expectError(await post('/api/users/999999/2fa/reset', admin.auth), 404, 'not_found');
    });
  });

  describe('a challenge handed out before', () => {
    it.each([
      ['signs the user out everywhere', (id: number) => `/api/users/${id}/sessions/revoke`, undefined],
      [
        'sets a temporary password',
        (id: number) => `/api/users/${id}/password-reset`,
        { temporary_password: 'Temp-Pass-4821!' },
      ],
      ['resets the user’s two-factor sign-in', (id: number) => `/api/users/${id}/2fa/reset`, undefined],
    ] as const)('ends when an admin %s', async (_name, url, payload) => {
      const user = await enrolledUser();
      const challenge = await passwordStep(t.app, user.user.username, user.user.password);
      const admin = await t.loginAdmin();
      const res = await post(url(user.user.id), admin.auth, payload);
      expect(res.statusCode, res.body).toBeLessThan(300);
      expectError(
        await verify(t.app, { challenge, code: codeAt(user.secret, now) }),
        401,
        'challenge_expired',
      );
    });

    it('ends when the user changes the password', async () => {
      const user = await enrolledUser();
      const challenge = await passwordStep(t.app, user.user.username, user.user.password);
      const signedIn = await verify(t.app, {
        challenge: await passwordStep(t.app, user.user.username, user.user.password),
        recovery_code: user.recoveryCodes[0]!,
      });
      const change = await post('/api/auth/change-password', bearer(signedIn), {
        current_password: user.user.password,
        new_password: 'Another-Pass-9034!',
        confirm_password: 'Another-Pass-9034!',
      });
      expect(change.statusCode, change.body).toBeLessThan(300);
      expectError(
        await verify(t.app, { challenge, code: codeAt(user.secret, now) }),
        401,
        'challenge_expired',
      );
    });
  });

  describe('temporary password', () => {
    it('ends the user’s sessions; the next sign-in may only change it', async () => {
      const session = await t.signInAs(['operator']);
      const admin = await t.loginAdmin();
      const weak = expectError(
        await post(`/api/users/${session.user.id}/password-reset`, admin.auth, {
          temporary_password: 'password',
        }),
        422,
      );
      expect(weak.errors?.[0]?.path).toBe('temporary_password');
      const temporary = 'Temporary-pass-42';
      const reset = await post(`/api/users/${session.user.id}/password-reset`, admin.auth, {
        temporary_password: temporary,
      });
      expect(reset.statusCode, reset.body).toBe(200);
      expectError(await get('/api/auth/me', session.auth), 401);
      expectError(
        await t.app.inject({
          method: 'POST',
          url: '/api/auth/refresh',
          cookies: { [REFRESH_COOKIE]: session.refreshToken },
        }),
        401,
      );
      expectError(
        await t.app.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { username: session.user.username, password: session.user.password },
        }),
        401,
        'invalid_credentials',
      );
      const login = await t.login(session.user.username, temporary);
      expect(login.body).toMatchObject({
        password_change_required: true,
        user: { pending_action: 'password_change' },
      });
      expect(
        (await get(`/api/users/${session.user.id}`, admin.auth)).json<User>().password_change_required,
      ).toBe(true);
      expectError(await get('/api/admin/api/config/quirks', login.auth), 403, 'password_change_required');
      expectError(await get('/api/auth/sessions', login.auth), 403, 'password_change_required');
      expectError(await post('/api/auth/2fa/setup', login.auth), 403, 'password_change_required');
      expect((await get('/api/auth/me', login.auth)).statusCode).toBe(200);

      const same = await post('/api/auth/change-password', login.auth, {
        current_password: temporary,
        new_password: temporary,
        confirm_password: temporary,
      });
      expectError(same, 422);
      const changed = await post('/api/auth/change-password', login.auth, {
        current_password: temporary,
        new_password: 'My-own-password-7',
        confirm_password: 'My-own-password-7',
      });
      expect(changed.statusCode, changed.body).toBe(200);
      expect((await get('/api/admin/api/config/quirks', login.auth)).statusCode).toBe(200);
      expect(
        (await get(`/api/users/${session.user.id}`, admin.auth)).json<User>().password_change_required,
      ).toBe(false);
      const audit = await auditActions('user.password_reset');
      expect(audit).toHaveLength(1);
      expect(JSON.stringify(audit)).not.toContain(temporary);
      expectError(
        await post(`/api/users/${t.adminId}/password-reset`, admin.auth, { temporary_password: temporary }),
        403,
      );
    });

    it('comes before the two-factor setup a role requires', async () => {
      now = start;
      const session = await t.signInAs(['viewer']);
      const admin = await t.loginAdmin();
      const viewer = (await get('/api/roles', admin.auth)).json<Role[]>().find((r) => r.name === 'viewer')!;
      await t.app.inject({
        method: 'PUT',
        url: `/api/roles/${viewer.id}`,
        headers: admin.auth,
        payload: {
          name: 'viewer',
          description: viewer.description,
          permissions: viewer.permissions,
          require_two_factor: true,
        },
      });
      await post(`/api/users/${session.user.id}/password-reset`, admin.auth, {
        temporary_password: 'Temporary-pass-42',
      });
      const login = await t.login(session.user.username, 'Temporary-pass-42');
      expect(login.body.user.pending_action).toBe('password_change');
      await post('/api/auth/change-password', login.auth, {
        current_password: 'Temporary-pass-42',
        new_password: 'My-own-password-7',
        confirm_password: 'My-own-password-7',
      });
      expect((await get('/api/auth/me', login.auth)).json()).toMatchObject({
        pending_action: 'two_factor_setup',
      });
      expectError(await get('/api/admin/api/config/quirks', login.auth), 403, 'two_factor_setup_required');
    });
  });

  describe('hostile input', () => {
    it.each([
      [{ challenge: 'x'.repeat(43) }],
      [{ challenge: 'x'.repeat(43), code: '123456', recovery_code: 'abcde-23456' }],
      [{ challenge: 'x'.repeat(43), code: "1' OR 1=1 --" }],
      [{ challenge: 'x'.repeat(43), code: '12345\u0000' }],
      [{ challenge: 'x'.repeat(43), code: 123456 }],
      // Long, but within the sign-in routes' 8 KB body limit (past it the answer is 413, auth.test.ts).
      [{ challenge: 'x'.repeat(43), recovery_code: 'a'.repeat(7_000) }],
      [{ challenge: "'; DROP TABLE users; --", code: '123456' }],
      [{ challenge: 'x'.repeat(101), code: '123456' }],
      [{ challenge: ['x'.repeat(43)], code: '123456' }],
    ])('verify refuses hostile input #%# with 422', async (payload) => {
      const res = await t.app.inject({ method: 'POST', url: '/api/auth/2fa/verify', payload });
      expectError(res, 422, 'validation_failed');
    });

    it('a secret sealed under another key answers 409 and asks for a reset, not a server error', async () => {
      const user = await enrolledUser();
      await t.app.db
        .updateTable('users')
        .set({ totp_secret: 'v1.AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' })
        .where('id', '=', user.user.id)
        .execute();
      const challenge = await passwordStep(t.app, user.user.username, user.user.password);
      const res = await verify(t.app, { challenge, code: codeAt(user.secret, now) });
      expect(expectError(res, 409, 'conflict').detail).toMatch(/reset/);
    });

    it('an unknown challenge is told apart from a wrong code', async () => {
      expectError(
        await verify(t.app, { challenge: 'x'.repeat(43), code: '123456' }),
        401,
        'challenge_expired',
      );
    });

    it('a challenge is bound to its user: another user’s codes do not open it', async () => {
      const victim = await enrolledUser();
      const attacker = await t.signInAs(['viewer']);
      const own = await enrol(t.app, attacker.auth, now);
      now += 30_000;
      const challenge = await passwordStep(t.app, victim.user.username, victim.user.password);
      expectError(
        await verify(t.app, { challenge, code: codeAt(own.secret, now) }),
        401,
        'invalid_credentials',
      );
      expectError(
        await verify(t.app, { challenge, recovery_code: own.recoveryCodes[0]! }),
        401,
        'invalid_credentials',
      );
    });
  });
});
