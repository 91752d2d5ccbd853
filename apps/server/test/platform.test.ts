import type { AuditListResponse, LoginResponse } from '@lumi/contract';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { eventually } from './cluster-process.js';
import { ADMIN, createTestApp, dialects, expectError, useTestApp } from './helper.js';

/** The CSP header as a map of directive to its value. */
function cspDirectives(res: LightMyRequestResponse): Map<string, string> {
  const header = res.headers['content-security-policy'];
  expect(header, `CSP on ${res.raw.req.url}`).toEqual(expect.any(String));
  return new Map(
    String(header)
      .split(';')
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => {
        const [name = '', ...values] = d.split(/\s+/);
        return [name, values.join(' ')] as const;
      }),
  );
}

const LEAKED_SECRET = 'postgres://lumi:hunter2@db.internal/lumi';

describe.each(dialects)('platform on %s', (dialect) => {
  const t = useTestApp(dialect, {
    configure: (app) => {
      // A route that fails the way a bug would: an error with a message that must never reach the client.
      app.get('/api/test/explode', { config: { permission: 'public' } }, () => {
        throw new Error(`connection to ${LEAKED_SECRET} failed`);
      });
    },
  });

  it('GET /api/health answers without a session', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('GET /api/ready reports the database, and where the allowance reads and counts', async () => {
    const ready = async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/ready' });
      expect(res.statusCode).toBe(200);
      return res.json<{ allowance_counts: string }>();
    };
    // PostgreSQL: the only instance on its database counts in memory once it has seen that it is.
    const answer = await eventually(
      async () => {
        const one = await ready();
        return one.allowance_counts === 'memory' ? one : undefined;
      },
      10_000,
      'the allowance to count in memory',
    );
    expect(answer).toEqual({
      status: 'ready',
      database: dialect,
      allowance: dialect === 'sqlite' ? 'memory' : 'database',
      allowance_counts: 'memory',
    });
  });

  it('GET /api/ready answers 503 once shutdown starts, while everything else is still served', async () => {
    const admin = await t.loginAdmin();
    t.app.readiness.shuttingDown = true;
    const ready = expectError(
      await t.app.inject({ method: 'GET', url: '/api/ready' }),
      503,
      'service_unavailable',
    );
    expect(ready.detail).toBe('This instance is shutting down; use another instance');
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: admin.auth })).statusCode).toBe(
      200,
    );
  });

  it('GET /api/ready answers 503 and other routes 500 when the database is gone', async () => {
    const own = await createTestApp({ dialect });
    try {
      const login = await own.loginAdmin();
      await own.app.db.destroy();
      const ready = await own.app.inject({ method: 'GET', url: '/api/ready' });
      const body = expectError(ready, 503, 'service_unavailable');
      expect(body.detail).toBe('The database is not reachable');
      const me = await own.app.inject({ method: 'GET', url: '/api/auth/me', headers: login.auth });
      const failure = expectError(me, 500, 'internal_error');
      expect(failure.detail).not.toMatch(/select|from|sqlite|pool|database/i);
    } finally {
      await own.close();
    }
  });

  it('GET /api/openapi.json is an OpenAPI 3 document of every API route', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json<{
      openapi: string;
      info: { title: string };
      paths: Record<string, Record<string, unknown>>;
      components: { securitySchemes: Record<string, unknown> };
    }>();
    expect(doc.openapi).toMatch(/^3\.\d+\.\d+$/);
    expect(doc.info.title).toBe('Lumi Admin API');
    expect(doc.components.securitySchemes).toHaveProperty('bearer');
    const documented = Object.entries(doc.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const routes = t.app.routeCatalogue
      .filter((r) => r.url !== '/api/openapi.json' && !r.url.startsWith('/api/test/'))
      .map((r) => `${r.method} ${r.url.replace(/:(\w+)/g, '{$1}')}`);
    expect(routes.length).toBeGreaterThan(15);
    expect(documented.sort()).toEqual(expect.arrayContaining(routes.sort()));
    expect(documented).toContain('POST /api/users');
    expect(documented).toContain('GET /api/admin/audit-logs');
  });

  it('GET /api/docs serves the browsable documentation', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toMatch(/<html/i);
    // The page must load over plain http too, so its policy may not upgrade requests to https.
    expect(res.headers['content-security-policy']).not.toContain('upgrade-insecure-requests');
  });

  it.each([
    ['GET', '/api/health'],
    ['GET', '/api/docs'],
    ['GET', '/api/users'],
    ['GET', '/api/no-such-route'],
    ['POST', '/api/auth/login'],
    ['GET', '/'],
    ['GET', '/admin/users'],
  ] as const)('sends the security headers on %s %s', async (method, url) => {
    const res = await t.app.inject({ method, url, payload: method === 'POST' ? {} : undefined });
    const csp = cspDirectives(res);
    expect(res.headers['content-security-policy']).not.toContain('unsafe-eval');
    expect(csp.get('frame-ancestors')).toBe("'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toEqual(
      expect.stringMatching(/^(no-referrer|same-origin|strict-origin)/),
    );
    // Plain http: no HSTS, which would be wrong on a plain-http install.
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });

  it.each([
    ['GET', '/api/health'],
    ['GET', '/api/users'],
    ['GET', '/api/no-such-route'],
    ['POST', '/api/auth/login'],
  ] as const)('keeps API answers (%s %s) out of caches, frames and renderers', async (method, url) => {
    const res = await t.app.inject({ method, url, payload: method === 'POST' ? {} : undefined });
    expect(res.headers['cache-control']).toBe('no-store');
    expect(cspDirectives(res).get('default-src')).toBe("'none'");
    expect(res.headers['x-frame-options']).toBe('DENY');
  });

  it.each([
    ['GET', '/'],
    ['GET', '/admin/users'],
    ['GET', '/api/docs'],
  ] as const)('sends the console policy on %s %s', async (method, url) => {
    const res = await t.app.inject({ method, url });
    expect(cspDirectives(res).get('default-src')).toBe("'self'");
    expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(res.headers['x-frame-options']).toBe('DENY');
  });

  it('sends HSTS only on requests that came over https (behind a trusted proxy)', async () => {
    const own = await createTestApp({ dialect, app: { trustProxy: 1 } });
    try {
      const https = await own.app.inject({
        method: 'GET',
        url: '/api/health',
        headers: { 'x-forwarded-proto': 'https' },
      });
      expect(https.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      expect(https.headers['x-frame-options']).toBe('DENY');
      const http = await own.app.inject({ method: 'GET', url: '/api/health' });
      expect(http.headers['strict-transport-security']).toBeUndefined();
    } finally {
      await own.close();
    }
  });

  it.each([
    // The client wrote 6.6.6.6 itself; the proxies appended the addresses after it.
    { trustProxy: 1, forwarded: '6.6.6.6, 203.0.113.9' },
    { trustProxy: ['127.0.0.1', '10.0.0.0/8'], forwarded: '6.6.6.6, 203.0.113.9, 10.1.2.3' },
  ])('takes the client address from trusted hops only ($trustProxy)', async ({ trustProxy, forwarded }) => {
    const own = await createTestApp({ dialect, app: { trustProxy } });
    try {
      const login = await own.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        remoteAddress: '127.0.0.1',
        headers: { 'x-forwarded-for': forwarded },
        payload: { username: ADMIN.username, password: ADMIN.password },
      });
      expect(login.statusCode).toBe(200);
      const logs = await own.app.inject({
        method: 'GET',
        url: '/api/admin/audit-logs?action=auth.login',
        headers: { authorization: `Bearer ${login.json<LoginResponse>().access_token}` },
      });
      expect(logs.json<AuditListResponse>().logs[0]?.ip_address).toBe('203.0.113.9');
    } finally {
      await own.close();
    }
  });

  it('answers an unknown API route with 404 in the error shape', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/no-such-route?x=1' });
    const body = expectError(res, 404, 'not_found');
    expect(body.detail).toBe('No route GET /api/no-such-route');
  });

  it.each(['/api/users/%ED%A0%80', '/api/config/model-prices/%FF', '/admin/%C0%AF'])(
    'answers a URL whose percent-encoding is not UTF-8 (%s) with 400 in the error shape',
    async (url) => {
      const res = await t.app.inject({ method: 'GET', url });
      const body = expectError(res, 400, 'bad_request');
      expect(body.detail).toBe('The URL is not valid: its percent-encoded characters must be UTF-8');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    },
  );

  it('answers malformed JSON with 400 in the error shape', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"username": "admin", ',
    });
    const body = expectError(res, 400, 'bad_request');
    expect(body.detail).toBe('The request body is not valid JSON');
  });

  it('answers a body of a type it does not read with 415 in the error shape', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'username=admin&password=x',
    });
    const body = expectError(res, 415, 'unsupported_media_type');
    expect(body.detail).toBe('Send the request body as JSON (Content-Type: application/json)');
  });

  it('asks for a JSON object when the body is missing or not an object', async () => {
    const admin = await t.loginAdmin();
    const withType = 'Send a JSON object, with Content-Type: application/json';
    const cases = [
      { headers: {}, payload: undefined, message: withType },
      // A JSON object sent as text: what to change is its Content-Type.
      { headers: { 'content-type': 'text/plain' }, payload: '{"username":"admin"}', message: withType },
      { headers: { 'content-type': 'application/json' }, payload: '[1, 2]', message: 'Send a JSON object' },
    ];
    for (const { headers, payload, message } of cases) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/users',
        headers: { ...admin.auth, ...headers },
        payload,
      });
      const body = expectError(res, 422, 'validation_failed');
      expect(body.errors).toEqual([{ path: '', message }]);
      expect(body.detail).toBe(message);
    }
  });

  it('says why valid JSON with a __proto__ or constructor.prototype key is refused', async () => {
    const admin = await t.loginAdmin();
    for (const payload of ['{"__proto__":{"admin":true}}', '{"name":"x","constructor":{"prototype":{}}}']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/users',
        headers: { ...admin.auth, 'content-type': 'application/json' },
        payload,
      });
      expect(expectError(res, 400, 'bad_request').detail).toBe(
        'The request body has a key named __proto__, or constructor with prototype in it: rename it',
      );
    }
    const broken = await t.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: { ...admin.auth, 'content-type': 'application/json' },
      payload: '{"__proto__":',
    });
    expect(expectError(broken, 400, 'bad_request').detail).toBe('The request body is not valid JSON');
  });

  it('answers an oversize body with 413 in the error shape', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ username: 'admin', password: 'x'.repeat(2 * 1024 * 1024) }),
    });
    const body = expectError(res, 413, 'payload_too_large');
    expect(body.detail).toBe('The request body is too large');
  });

  it('answers an unexpected error with 500 and no stack trace or internals', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/test/explode' });
    const body = expectError(res, 500, 'internal_error');
    expect(body.detail).toContain(body.request_id);
    expect(res.body).not.toContain('hunter2');
    expect(res.body).not.toContain('connection to');
    expect(res.body).not.toMatch(/\bat .*\(.*:\d+:\d+\)|\.ts:\d+/);
    expect(body).not.toHaveProperty('stack');
  });

  it('echoes a well-formed X-Request-Id and generates one otherwise', async () => {
    const given = await t.app.inject({
      method: 'GET',
      url: '/api/nowhere',
      headers: { 'x-request-id': 'trace-123' },
    });
    expect(given.headers['x-request-id']).toBe('trace-123');
    expect(given.json()).toMatchObject({ request_id: 'trace-123' });
    const odd = await t.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'x-request-id': 'bad id\n' },
    });
    expect(odd.headers['x-request-id']).toEqual(expect.stringMatching(/^[0-9a-f]{12}-[0-9a-z]+$/));
    const another = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(another.headers['x-request-id']).not.toBe(odd.headers['x-request-id']);
  });

  it('redirects / to the console at /admin/', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/admin/');
  });
});
