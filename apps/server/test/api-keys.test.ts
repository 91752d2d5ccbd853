import {
  API_KEY_SCOPES,
  type ApiKey,
  type ApiKeyCreated,
  type ApiKeyScope,
  type AuditLog,
} from '@lumi/contract';
import { describe, expect, it } from 'vitest';
import { actorOf } from '../src/plugins/auth.js';
import { dialects, expectError, useTestApp, type Session } from './helper.js';

const KEYS = '/api/admin/api-keys';
const START = Date.parse('2026-11-20T12:00:00.000Z');

describe.each(dialects)('API keys on %s', (dialect) => {
  let now = START;
  const t = useTestApp(dialect, {
    app: { now: () => now },
    // A route that answers with the actor the audit log would record, to see how a key is named.
    configure: (app) =>
      app.get(
        '/api/test/actor',
        { config: { permission: 'config:read', apiKeyScope: 'config:read' } },
        (request) => actorOf(request),
      ),
  });

  const create = (session: Session, payload: object) =>
    t.app.inject({ method: 'POST', url: KEYS, headers: session.auth, payload });
  const createKey = async (session: Session, scopes: ApiKeyScope[], extra: object = {}) => {
    const res = await create(session, { name: `bot-${scopes.join('-')}-${Math.random()}`, scopes, ...extra });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<ApiKeyCreated>();
  };
  const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
  const list = async (session: Session) =>
    (await t.app.inject({ method: 'GET', url: KEYS, headers: session.auth })).json<ApiKey[]>();

  it('creates a key, shows it once and lists it without the secret', async () => {
    now = START;
    const admin = await t.loginAdmin();
    const res = await create(admin, {
      name: 'Trading bot',
      scopes: ['ingest:write', 'config:read', 'ingest:write'],
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.headers['cache-control']).toBe('no-store');
    const created = res.json<ApiKeyCreated>();
    expect(created.key).toMatch(/^lumi_[A-Za-z0-9_-]{43}$/);
    expect(created).toMatchObject({
      name: 'Trading bot',
      prefix: created.key.slice(0, 12),
      scopes: ['ingest:write', 'config:read'],
      created_at: new Date(START).toISOString(),
      created_by: 'admin',
      last_used_at: null,
      expires_at: null,
      revoked_at: null,
      status: 'active',
    });

    const listed = await t.app.inject({ method: 'GET', url: KEYS, headers: admin.auth });
    expect(listed.statusCode).toBe(200);
    const { key: _key, ...withoutKey } = created;
    expect(listed.json()).toEqual([withoutKey]);
    expect(listed.body).not.toContain(created.key);
    expect(listed.body).not.toContain('hash');
  });

  it.each([
    [{ scopes: ['config:read'] }, 'name'],
    [{ name: '  ', scopes: ['config:read'] }, 'name'],
    [{ name: 'x'.repeat(101), scopes: ['config:read'] }, 'name'],
    [{ name: 'No scopes', scopes: [] }, 'scopes'],
    [{ name: 'Bad scope', scopes: ['users:write'] }, 'scopes.0'],
    [{ name: 'Bad expiry', scopes: ['config:read'], expires_at: 'tomorrow' }, 'expires_at'],
    [{ name: 'Past expiry', scopes: ['config:read'], expires_at: '2026-11-20T11:59:59Z' }, 'expires_at'],
  ])('refuses %j', async (payload, path) => {
    now = START;
    const admin = await t.loginAdmin();
    const body = expectError(await create(admin, payload), 422, 'validation_failed');
    expect(body.errors!.map((e) => e.path)).toContain(path);
  });

  it('keeps names unique among keys not revoked', async () => {
    now = START;
    const admin = await t.loginAdmin();
    const first = (await create(admin, { name: 'Bot', scopes: ['config:read'] })).json<ApiKeyCreated>();
    expectError(await create(admin, { name: 'bot', scopes: ['ingest:write'] }), 409, 'conflict');
    await t.app.inject({ method: 'DELETE', url: `${KEYS}/${first.id}`, headers: admin.auth });
    expect((await create(admin, { name: 'bot', scopes: ['ingest:write'] })).statusCode).toBe(201);
  });

  it('lets a key with config:read read the bot configuration, and not a key without it', async () => {
    now = START;
    const admin = await t.loginAdmin();
    const reader = await createKey(admin, ['config:read']);
    const ingester = await createKey(admin, ['ingest:write', 'templates:read']);
    const ok = await t.app.inject({ method: 'GET', url: '/api/bot/config', headers: bearer(reader.key) });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toHaveProperty('domains');
    const refused = expectError(
      await t.app.inject({ method: 'GET', url: '/api/bot/config', headers: bearer(ingester.key) }),
      403,
      'forbidden',
    );
    expect(refused.detail).toContain("'config:read'");
  });

  it('refuses keys on user, role, audit, key management and other user routes, whatever their scopes', async () => {
    now = START;
    const admin = await t.loginAdmin();
    const all = await createKey(admin, [...API_KEY_SCOPES]);
    for (const [method, url] of [
      ['GET', '/api/users'],
      ['POST', '/api/users'],
      ['GET', '/api/roles'],
      ['GET', '/api/admin/audit-logs'],
      ['GET', KEYS],
      ['POST', KEYS],
      ['DELETE', `${KEYS}/${all.id}`],
      ['GET', '/api/auth/me'],
      ['GET', '/api/metrics/bot-health'],
      ['GET', '/api/admin/api/config/moods'],
      ['PUT', '/api/config/model-prices/gemini-pro'],
    ] as const) {
      const res = await t.app.inject({ method, url, headers: bearer(all.key), payload: {} });
      const body = expectError(res, 403, 'forbidden');
      expect(body.detail, `${method} ${url}`).toBe(
        'API keys cannot be used here: this endpoint is for signed-in users',
      );
    }
    // The refused attempt to revoke itself changed nothing.
    expect((await list(admin)).find((k) => k.id === all.id)?.status).toBe('active');
  });

  it('revokes a key at once, and says so to its holder', async () => {
    now = START;
    const admin = await t.loginAdmin();
    const key = await createKey(admin, ['config:read']);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/bot/config', headers: bearer(key.key) })).statusCode,
    ).toBe(200);

    // Within the time a checked key is reused (LUMI_AUTH_CACHE_SECONDS, 5 s here): the revocation itself
    // makes the next request read the key again.
    now = START + 1000;
    const revoked = await t.app.inject({ method: 'DELETE', url: `${KEYS}/${key.id}`, headers: admin.auth });
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(revoked.json<ApiKey>()).toMatchObject({
      status: 'revoked',
      revoked_at: new Date(START + 1000).toISOString(),
    });

    const body = expectError(
      await t.app.inject({ method: 'GET', url: '/api/bot/config', headers: bearer(key.key) }),
      401,
      'unauthenticated',
    );
    expect(body.detail).toMatch(/revoked/);
    // Revoking again changes nothing; an unknown key is a 404.
    const again = await t.app.inject({ method: 'DELETE', url: `${KEYS}/${key.id}`, headers: admin.auth });
    expect(again.json<ApiKey>().revoked_at).toBe(new Date(START + 1000).toISOString());
    expectError(
      await t.app.inject({ method: 'DELETE', url: `${KEYS}/999999`, headers: admin.auth }),
      404,
      'not_found',
    );
  });

  it('refuses a key after its expiry', async () => {
    now = START;
    const admin = await t.loginAdmin();
    const key = await createKey(admin, ['config:read'], { expires_at: '2026-11-20T14:00:00+01:00' });
    expect(key.expires_at).toBe('2026-11-20T13:00:00.000Z');
    now = Date.parse('2026-11-20T12:59:59.999Z');
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/bot/config', headers: bearer(key.key) })).statusCode,
    ).toBe(200);
    now = Date.parse('2026-11-20T13:00:00.000Z');
    const body = expectError(
      await t.app.inject({ method: 'GET', url: '/api/bot/config', headers: bearer(key.key) }),
      401,
      'unauthenticated',
    );
    expect(body.detail).toMatch(/expired/);
    expect((await list(admin)).find((k) => k.id === key.id)?.status).toBe('expired');
  });

  it('refuses an unknown key with 401', async () => {
    const body = expectError(
      await t.app.inject({
        method: 'GET',
        url: '/api/bot/config',
        headers: bearer(`lumi_${'A'.repeat(43)}`),
      }),
      401,
      'unauthenticated',
    );
    expect(body.detail).toMatch(/not valid/);
  });

  it('records when a key was last used, at most once a minute', async () => {
    now = START;
    const admin = await t.loginAdmin();
    const key = await createKey(admin, ['config:read']);
    const lastUsed = async () => (await list(admin)).find((k) => k.id === key.id)?.last_used_at;
    const use = () => t.app.inject({ method: 'GET', url: '/api/bot/config', headers: bearer(key.key) });
    expect(await lastUsed()).toBeNull();
    now = START + 1000;
    await use();
    expect(await lastUsed()).toBe(new Date(START + 1000).toISOString());
    now = START + 30_000;
    await use();
    expect(await lastUsed()).toBe(new Date(START + 1000).toISOString());
    now = START + 61_000;
    await use();
    expect(await lastUsed()).toBe(new Date(START + 61_000).toISOString());
  });

  it('names the key as the actor (key:<name>) and keeps the user principal empty', async () => {
    now = START;
    const admin = await t.loginAdmin();
    const res = await create(admin, { name: 'reporter', scopes: ['config:read'] });
    const key = res.json<ApiKeyCreated>();
    const actor = await t.app.inject({ method: 'GET', url: '/api/test/actor', headers: bearer(key.key) });
    expect(actor.json()).toMatchObject({ id: null, username: 'key:reporter' });
    const asAdmin = await t.app.inject({ method: 'GET', url: '/api/test/actor', headers: admin.auth });
    expect(asAdmin.json()).toMatchObject({ id: t.adminId, username: 'admin' });
  });

  it('audits creating and revoking, without the key or its hash', async () => {
    now = START;
    const admin = await t.loginAdmin();
    const key = await createKey(admin, ['ingest:write']);
    await t.app.inject({ method: 'DELETE', url: `${KEYS}/${key.id}`, headers: admin.auth });
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/admin/audit-logs?resource_type=api_key',
      headers: admin.auth,
    });
    const logs = res.json<{ logs: AuditLog[] }>().logs;
    expect(logs.map((l) => [l.action, l.user, l.resource_id])).toEqual([
      ['api_key.revoked', 'admin', String(key.id)],
      ['api_key.created', 'admin', String(key.id)],
    ]);
    expect(logs[1]!.new_value).toEqual({
      name: key.name,
      prefix: key.prefix,
      scopes: ['ingest:write'],
      expires_at: null,
      capture_content: false,
      content_redactions: [],
    });
    expect(logs[0]).toMatchObject({
      old_value: { revoked_at: null },
      new_value: { revoked_at: expect.any(String) },
    });
    expect(res.body).not.toContain(key.key);
  });

  it('needs admin:keys:write: an operator may not manage keys', async () => {
    const operator = await t.signInAs(['operator']);
    const body = expectError(
      await t.app.inject({ method: 'GET', url: KEYS, headers: operator.auth }),
      403,
      'forbidden',
    );
    expect(body.detail).toContain('admin:keys:write');
    expectError(await create(operator, { name: 'x', scopes: ['config:read'] }), 403, 'forbidden');
  });
});
