import type { AuditListResponse } from '@lumi/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ADMIN, dialects, expectError, useTestApp } from './helper.js';

const WINDOW_SECONDS = 15 * 60;

describe.each(dialects)('sign-in throttling on %s', (dialect) => {
  const t = useTestApp(dialect);

  afterEach(() => {
    vi.useRealTimers();
  });

  const attempt = (username: string, password: string, ip = '10.0.0.1') =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username, password },
      remoteAddress: ip,
    });

  /** Audit entries read by the admin from an address of its own, so the admin is never throttled. */
  const auditEntries = async (action: string) => {
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: ADMIN.username, password: ADMIN.password },
      remoteAddress: '192.0.2.250',
    });
    expect(login.statusCode).toBe(200);
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/admin/audit-logs?action=${action}&limit=200`,
      headers: { authorization: `Bearer ${login.json<{ access_token: string }>().access_token}` },
    });
    return res.json<AuditListResponse>().logs;
  };

  const expectThrottled = (res: Awaited<ReturnType<typeof attempt>>) => {
    const body = expectError(res, 429, 'too_many_requests');
    expect(body.detail).toMatch(/^Too many failed sign-in attempts\. Try again in \d+ minutes?\.$/);
    const retryAfter = Number(res.headers['retry-after']);
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(WINDOW_SECONDS);
  };

  it('answers 429 with Retry-After after 5 failed sign-ins for one username', async () => {
    const user = await t.createUser({ roles: ['viewer'] });
    for (let i = 0; i < 5; i += 1) {
      expectError(await attempt(user.username, 'Wrong-password-1'), 401, 'invalid_credentials');
    }
    // The sixth attempt is refused even with the right password.
    expectThrottled(await attempt(user.username, user.password));
    // Another address does not help: the limit is per username (and the username ignores case).
    expectThrottled(await attempt(user.username.toUpperCase(), user.password, '10.0.0.2'));
    // Other users signing in from the same address are not affected.
    const other = await t.createUser({ roles: ['viewer'] });
    expect((await attempt(other.username, other.password)).statusCode).toBe(200);
  });

  it('locks nobody out for longer than the 15-minute window', async () => {
    const user = await t.createUser({ roles: ['viewer'] });
    const start = Date.now();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(start);
    for (let i = 0; i < 5; i += 1) await attempt(user.username, 'Wrong-password-1');

    vi.setSystemTime(start + 10 * 60_000);
    const throttled = await attempt(user.username, user.password);
    expectThrottled(throttled);
    // The oldest failure leaves the window in five minutes.
    expect(throttled.headers['retry-after']).toBe('300');
    expect(throttled.json()).toMatchObject({
      detail: 'Too many failed sign-in attempts. Try again in 5 minutes.',
    });

    vi.setSystemTime(start + 15 * 60_000 + 1_000);
    expect((await attempt(user.username, user.password)).statusCode).toBe(200);
  });

  it('counts failures for usernames that do not exist too', async () => {
    for (let i = 0; i < 5; i += 1) expectError(await attempt('ghost', 'Wrong-password-1'), 401);
    expectThrottled(await attempt('ghost', 'Wrong-password-1'));
  });

  it('resets the username’s count after a successful sign-in', async () => {
    const user = await t.createUser({ roles: ['viewer'] });
    for (let i = 0; i < 4; i += 1) expectError(await attempt(user.username, 'Wrong-password-1'), 401);
    expect((await attempt(user.username, user.password)).statusCode).toBe(200);
    // Without the reset these four would make eight failures and the next attempt would be refused.
    for (let i = 0; i < 4; i += 1) expectError(await attempt(user.username, 'Wrong-password-1'), 401);
    expect((await attempt(user.username, user.password)).statusCode).toBe(200);
  });

  it('answers 429 after 20 failed sign-ins from one address, whatever the username', async () => {
    const user = await t.createUser({ roles: ['viewer'] });
    for (let i = 0; i < 20; i += 1) {
      expectError(await attempt(`someone-${i}`, 'Wrong-password-1', '10.9.9.9'), 401);
    }
    expectThrottled(await attempt(user.username, user.password, '10.9.9.9'));
    // The same user from another address is fine.
    expect((await attempt(user.username, user.password, '10.9.9.10')).statusCode).toBe(200);
  });

  it('records failed and throttled sign-ins in the audit log', async () => {
    const user = await t.createUser({ roles: ['viewer'] });
    for (let i = 0; i < 5; i += 1) await attempt(user.username, 'Wrong-password-1');
    await attempt('nobody-at-all', 'Wrong-password-1');
    expectThrottled(await attempt(user.username, user.password));

    const failed = await auditEntries('auth.login_failed');
    expect(failed.filter((e) => e.user === user.username)).toHaveLength(5);
    expect(failed).toContainEqual(
      expect.objectContaining({
        action: 'auth.login_failed',
        user: null,
        ip_address: '10.0.0.1',
        new_value: expect.objectContaining({ username: 'nobody-at-all' }),
      }),
    );
    const throttled = await auditEntries('auth.throttled');
    expect(throttled).toEqual([
      expect.objectContaining({
        action: 'auth.throttled',
        ip_address: '10.0.0.1',
        new_value: expect.objectContaining({ username: user.username.toLowerCase() }),
      }),
    ]);
    const text = JSON.stringify([...failed, ...throttled]);
    expect(text).not.toContain('Wrong-password-1');
    expect(text).not.toContain(user.password);
  });

  describe('under concurrency', () => {
    const statuses = (responses: Array<{ statusCode: number }>) => {
      const counts: Record<number, number> = {};
      for (const r of responses) counts[r.statusCode] = (counts[r.statusCode] ?? 0) + 1;
      return counts;
    };

    it('lets 100 parallel wrong passwords reach at most 5 password checks; the rest get 429', async () => {
      const user = await t.createUser({ roles: ['viewer'] });
      const responses = await Promise.all(
        Array.from({ length: 100 }, () => attempt(user.username, 'Wrong-password-1')),
      );
      expect(statuses(responses)).toEqual({ 401: 5, 429: 95 });
      expectThrottled(await attempt(user.username, user.password, '10.0.0.77'));
      // The flood is audited, but not once per refused request.
      const throttled = (await auditEntries('auth.throttled')).filter(
        (e) => (e.new_value as { username?: string }).username === user.username.toLowerCase(),
      );
      expect(throttled.map((e) => e.ip_address).sort()).toEqual(['10.0.0.1', '10.0.0.77']);
    });

    it('does not let the right password through among 40 wrong ones beyond the allowed attempts', async () => {
      const user = await t.createUser({ roles: ['viewer'] });
      const wrong = Array.from({ length: 40 }, () => attempt(user.username, 'Wrong-password-1'));
      const responses = await Promise.all([...wrong, attempt(user.username, user.password)]);
      const counts = statuses(responses);
      // Only the first 5 attempts to reserve a slot were checked at all.
      expect((counts[401] ?? 0) + (counts[200] ?? 0)).toBe(5);
      expect(counts[429]).toBe(36);
    });

    it('holds the address limit for parallel attempts on many usernames', async () => {
      const responses = await Promise.all(
        Array.from({ length: 60 }, (_, i) => attempt(`nobody-${i}`, 'Wrong-password-1', '10.7.7.7')),
      );
      expect(statuses(responses)).toEqual({ 401: 20, 429: 40 });
    });

    it.runIf(dialect === 'postgres')('holds across two instances on one database', async () => {
      const user = await t.createUser({ roles: ['viewer'] });
      const other = await t.secondInstance();
      const on = (app: typeof t.app) =>
        app.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { username: user.username, password: 'Wrong-password-1' },
          remoteAddress: '10.0.0.1',
        });
      const responses = await Promise.all(
        Array.from({ length: 100 }, (_, i) => on(i % 2 === 0 ? t.app : other)),
      );
      expect(statuses(responses)).toEqual({ 401: 5, 429: 95 });
    });
  });
});
