import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSecret, seed } from '../src/bootstrap.js';
import { loadConfig } from '../src/config.js';
import { dialects, useTestApp } from './helper.js';

describe('loadSecret', () => {
  const dirs: string[] = [];
  const dataDir = () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'lumi-data-'));
    dirs.push(dir);
    return path.join(dir, 'nested');
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('uses LUMI_SECRET when it is set', () => {
    const secret = 'k'.repeat(40);
    const key = loadSecret(loadConfig({ DATA_DIR: dataDir(), LUMI_SECRET: secret }));
    expect(new TextDecoder().decode(key)).toBe(secret);
  });

  it('otherwise generates a key once and keeps it in DATA_DIR, readable only by its owner', () => {
    const config = loadConfig({ DATA_DIR: dataDir() });
    const first = loadSecret(config);
    expect(first.byteLength).toBeGreaterThanOrEqual(32);
    const file = path.join(config.DATA_DIR, 'secret.key');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8').trim()).toBe(new TextDecoder().decode(first));
    expect(loadSecret(config)).toEqual(first);
    expect(loadSecret(loadConfig({ DATA_DIR: dataDir() }))).not.toEqual(first);
  });
});

describe.each(dialects)('seed on %s', (dialect) => {
  const t = useTestApp(dialect);

  it('creates nothing more once a user exists', async () => {
    // The test app was seeded already; seeding again (every start) changes nothing.
    const again = await seed(t.app.db, t.app.services, loadConfig({ LUMI_ADMIN_USERNAME: 'second' }));
    expect(again).toEqual({ created: false });
    const admin = await t.loginAdmin();
    const users = await t.app.inject({ method: 'GET', url: '/api/users', headers: admin.auth });
    expect(users.json()).toMatchObject({ total: 1, users: [{ username: 'admin' }] });
    const roles = await t.app.inject({ method: 'GET', url: '/api/roles', headers: admin.auth });
    expect(roles.json<{ name: string }[]>().map((r) => r.name)).toEqual(['admin', 'operator', 'viewer']);
  });

  it('generates a password for the first admin when none is configured, and returns it to print', async () => {
    // No user at all, as on a fresh install.
    await t.app.db.deleteFrom('users').execute();

    const first = await seed(t.app.db, t.app.services, loadConfig({ LUMI_ADMIN_USERNAME: 'owner' }));
    expect(first).toEqual({ created: true, password: expect.stringMatching(/^[\w-]{20,}$/) });
    const session = await t.login('owner', first.password!);
    expect(session.body.user).toMatchObject({ username: 'owner', role: 'admin' });
    // The placeholder address passes the same email rule as every form, so the profile can be saved.
    const save = await t.app.inject({
      method: 'PUT',
      url: '/api/auth/profile',
      headers: session.auth,
      payload: { name: 'Owner', email: session.body.user.email },
    });
    expect(save.statusCode, save.body).toBe(200);
  });

  it('does not print a password that came from LUMI_ADMIN_PASSWORD', async () => {
    // No user at all, as on a fresh install.
    await t.app.db.deleteFrom('users').execute();
    const first = await seed(
      t.app.db,
      t.app.services,
      loadConfig({ LUMI_ADMIN_USERNAME: 'owner', LUMI_ADMIN_PASSWORD: 'Configured-pass-1' }),
    );
    expect(first).toEqual({ created: true, password: undefined });
    await t.login('owner', 'Configured-pass-1');
  });
});
