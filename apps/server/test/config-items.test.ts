import {
  CONFIG_DOMAINS,
  CONFIG_MESSAGES,
  type BotConfig,
  type ConfigItem,
  type ConfigRevision,
} from '@lumi/contract';
import { describe, expect, it } from 'vitest';
import { dialects, expectError, useTestApp, type Session } from './helper.js';

const base = (domain = 'moods') => `/api/admin/api/config/${domain}`;

describe.each(dialects)('configuration items on %s', (dialect) => {
  const t = useTestApp(dialect);

  const create = (session: Session, payload: object, domain = 'moods') =>
    t.app.inject({ method: 'POST', url: base(domain), headers: session.auth, payload });
  const update = (session: Session, id: number, payload: object, domain = 'moods') =>
    t.app.inject({ method: 'PUT', url: `${base(domain)}/${id}`, headers: session.auth, payload });
  const created = async (session: Session, payload: object, domain = 'moods') => {
    const res = await create(session, payload, domain);
    expect(res.statusCode, res.body).toBe(201);
    return res.json<ConfigItem>();
  };

  it('creates an item with the defaults and normalised tags', async () => {
    const admin = await t.loginAdmin();
    const item = await created(admin, {
      name: 'Cheerful',
      content: { tone: 'bright' },
      tags: [' happy ', '', 'happy', 'sun'],
    });
    expect(item).toMatchObject({
      domain: 'moods',
      name: 'Cheerful',
      description: '',
      content: { tone: 'bright' },
      is_active: true,
      tags: ['happy', 'sun'],
      priority: 1,
      version: 1,
      updated_by: 'admin',
    });
    const list = await t.app.inject({ method: 'GET', url: base(), headers: admin.auth });
    expect(list.json<ConfigItem[]>().map((i) => i.name)).toEqual(['Cheerful']);
    const text = await created(admin, { name: 'Plain', content: 'Just say hi', priority: 10 });
    expect(text.content).toBe('Just say hi');
  });

  it('refuses an unknown domain with a 404 naming the valid ones', async () => {
    const admin = await t.loginAdmin();
    const body = expectError(
      await t.app.inject({ method: 'GET', url: base('weather'), headers: admin.auth }),
      404,
      'not_found',
    );
    for (const domain of CONFIG_DOMAINS) expect(body.detail).toContain(domain);
  });

  it.each([
    [{ content: 'x' }, 'name', CONFIG_MESSAGES.nameRequired],
    [{ name: '   ', content: 'x' }, 'name', CONFIG_MESSAGES.nameRequired],
    [{ name: 'A' }, 'content', CONFIG_MESSAGES.contentRequired],
    [{ name: 'A', content: '  ' }, 'content', CONFIG_MESSAGES.contentRequired],
    [{ name: 'A', content: 'x', priority: 0 }, 'priority', CONFIG_MESSAGES.priority],
    [{ name: 'A', content: 'x', priority: 11 }, 'priority', CONFIG_MESSAGES.priority],
    [{ name: 'A', content: 'x', priority: 2.5 }, 'priority', CONFIG_MESSAGES.priority],
    [{ name: 'A', content: 'x', tags: ['x'.repeat(51)] }, 'tags.0', CONFIG_MESSAGES.tagTooLong],
    [
      { name: 'A', content: 'x', tags: Array.from({ length: 21 }, (_, i) => `t${i}`) },
      'tags',
      CONFIG_MESSAGES.tooManyTags,
    ],
    [{ name: 'A', content: 'x'.repeat(100 * 1024 + 1) }, 'content', CONFIG_MESSAGES.contentTooLarge],
  ])('validates %j', async (payload, path, message) => {
    const admin = await t.loginAdmin();
    const body = expectError(await create(admin, payload), 422, 'validation_failed');
    expect(body.errors).toContainEqual({ path, message });
  });

  it('keeps names unique within a domain, without regard to case', async () => {
    const admin = await t.loginAdmin();
    await created(admin, { name: 'Grumpy', content: 'x' });
    expectError(await create(admin, { name: 'grumpy', content: 'y' }), 409, 'conflict');
    await created(admin, { name: 'Grumpy', content: 'x' }, 'quirks');
  });

  it('refuses a stale version with 409 and the current item, for updates and deletes', async () => {
    const admin = await t.loginAdmin();
    const item = await created(admin, { name: 'Calm', content: 'x' });
    const first = await update(admin, item.id, { name: 'Calm', content: 'first', version: 1 });
    expect(first.json<ConfigItem>().version).toBe(2);

    const stale = await update(admin, item.id, { name: 'Calm', content: 'second', version: 1 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ code: 'conflict', current: { content: 'first', version: 2 } });
    expect(stale.json<{ detail: string }>().detail).toContain('since you loaded it');

    const staleDelete = await t.app.inject({
      method: 'DELETE',
      url: `${base()}/${item.id}?version=1`,
      headers: admin.auth,
    });
    expect(staleDelete.statusCode).toBe(409);
    expectError(
      await update(admin, item.id, { name: 'Calm', content: 'no version' }),
      422,
      'validation_failed',
    );
    const del = await t.app.inject({
      method: 'DELETE',
      url: `${base()}/${item.id}?version=2`,
      headers: admin.auth,
    });
    expect(del.statusCode).toBe(200);
    expectError(await t.app.inject({ method: 'GET', url: `${base()}/${item.id}`, headers: admin.auth }), 404);
  });

  it('lets one of two saves from the same version win at once, on either instance; the other gets 409', async () => {
    const admin = await t.loginAdmin();
    const item = await created(admin, { name: 'Raced', content: 'x' });
    const other = dialect === 'postgres' ? await t.secondInstance() : t.app;
    // Both instances have checked the sign-in already, so neither request waits on that.
    for (const app of [t.app, other]) await app.inject({ method: 'GET', url: base(), headers: admin.auth });
    const results = await Promise.all(
      [t.app, other].map((app, index) =>
        app.inject({
          method: 'PUT',
          url: `${base()}/${item.id}`,
          headers: admin.auth,
          payload: { name: 'Raced', content: `save ${index}`, version: 1 },
        }),
      ),
    );
    expect(results.map((res) => res.statusCode).sort()).toEqual([200, 409]);
    const revisions = await t.app.inject({
      method: 'GET',
      url: `${base()}/${item.id}/revisions`,
      headers: admin.auth,
    });
    expect(revisions.json<ConfigRevision[]>().map((r) => r.revision)).toEqual([2, 1]);
  });

  it('keeps a revision per change and restores one as a new revision', async () => {
    const admin = await t.loginAdmin();
    const item = await created(admin, { name: 'Bold', content: { level: 1 }, tags: ['a'] });
    await update(admin, item.id, { name: 'Bold', content: { level: 2 }, tags: ['a'], version: 1 });
    await update(admin, item.id, {
      name: 'Bolder',
      content: { level: 2 },
      tags: ['a'],
      priority: 4,
      version: 2,
    });

    const list = await t.app.inject({
      method: 'GET',
      url: `${base()}/${item.id}/revisions`,
      headers: admin.auth,
    });
    const revisions = list.json<ConfigRevision[]>();
    expect(revisions.map((r) => [r.revision, r.action, r.changes])).toEqual([
      [3, 'updated', ['name', 'priority']],
      [2, 'updated', ['content']],
      [1, 'created', ['name', 'description', 'content', 'is_active', 'tags', 'priority']],
    ]);
    expect(revisions[2]!.updated_by).toBe('admin');

    const restore = await t.app.inject({
      method: 'POST',
      url: `${base()}/${item.id}/revisions/1/restore`,
      headers: admin.auth,
      payload: { version: 3 },
    });
    expect(restore.statusCode, restore.body).toBe(200);
    expect(restore.json<ConfigItem>()).toMatchObject({
      name: 'Bold',
      content: { level: 1 },
      priority: 1,
      version: 4,
    });
    const after = (
      await t.app.inject({ method: 'GET', url: `${base()}/${item.id}/revisions`, headers: admin.auth })
    ).json<ConfigRevision[]>();
    expect(after[0]).toMatchObject({ revision: 4, action: 'restored', restored_from: 1 });
    expectError(
      await t.app.inject({
        method: 'POST',
        url: `${base()}/${item.id}/revisions/9/restore`,
        headers: admin.auth,
      }),
      404,
    );
  });

  it('audits every change with old and new values', async () => {
    const admin = await t.loginAdmin();
    const item = await created(admin, { name: 'Audited', content: 'v1' });
    await update(admin, item.id, { name: 'Audited', content: 'v2', version: 1 });
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/admin/audit-logs?resource_type=config_item',
      headers: admin.auth,
    });
    const logs = res.json<{ logs: Array<{ action: string; old_value: unknown; new_value: unknown }> }>().logs;
    expect(logs.map((l) => l.action)).toEqual(['config.updated', 'config.created']);
    expect(logs[0]).toMatchObject({
      old_value: { content: 'v1', domain: 'moods' },
      new_value: { content: 'v2' },
    });
  });

  it('exports a domain and imports all items or none', async () => {
    const admin = await t.loginAdmin();
    await created(admin, { name: 'Existing', content: 'old' });
    const exported = await t.app.inject({ method: 'GET', url: `${base()}/export`, headers: admin.auth });
    expect(exported.headers['content-disposition']).toContain('lumi-moods.json');
    expect(exported.json<{ items: unknown[] }>().items).toEqual([
      { name: 'Existing', description: '', content: 'old', is_active: true, tags: [], priority: 1 },
    ]);

    const bad = await t.app.inject({
      method: 'POST',
      url: `${base()}/import`,
      headers: admin.auth,
      payload: {
        items: [
          { name: 'Fine', content: 'ok' },
          { name: 'Broken', content: '' },
          { name: 'fine', content: 'dup' },
        ],
      },
    });
    const body = expectError(bad, 422, 'validation_failed');
    expect(body.errors).toEqual([
      { path: 'items.1.content', message: CONFIG_MESSAGES.contentRequired },
      { path: 'items.2.name', message: "The name 'fine' is also used by item 0" },
    ]);
    const unchanged = await t.app.inject({ method: 'GET', url: base(), headers: admin.auth });
    expect(unchanged.json<ConfigItem[]>().map((i) => i.name)).toEqual(['Existing']);

    const good = await t.app.inject({
      method: 'POST',
      url: `${base()}/import`,
      headers: admin.auth,
      payload: {
        items: [
          { name: 'existing', content: 'new' },
          { name: 'Fresh', content: { a: 1 } },
        ],
      },
    });
    expect(good.json()).toEqual({ created: 1, updated: 1 });
    const items = (await t.app.inject({ method: 'GET', url: base(), headers: admin.auth })).json<
      ConfigItem[]
    >();
    expect(items.map((i) => [i.name, i.content, i.version])).toEqual([
      ['existing', 'new', 2],
      ['Fresh', { a: 1 }, 1],
    ]);
  });

  it('serves the bot every active item by domain, highest priority first, with an ETag', async () => {
    const admin = await t.loginAdmin();
    await created(admin, { name: 'Low', content: 'l', priority: 2 });
    await created(admin, { name: 'High', content: 'h', priority: 9 });
    await created(admin, { name: 'Off', content: 'o', is_active: false });
    await created(admin, { name: 'Flag', content: { on: true } }, 'feature-flags');

    const res = await t.app.inject({ method: 'GET', url: '/api/bot/config', headers: admin.auth });
    expect(res.statusCode).toBe(200);
    const body = res.json<BotConfig>();
    expect(Object.keys(body.domains)).toEqual([...CONFIG_DOMAINS]);
    expect(body.domains.moods.map((i) => i.name)).toEqual(['High', 'Low']);
    expect(body.domains['feature-flags'].map((i) => i.content)).toEqual([{ on: true }]);
    const etag = res.headers.etag as string;
    expect(etag).toMatch(/^".+"$/);

    const again = await t.app.inject({
      method: 'GET',
      url: '/api/bot/config',
      headers: { ...admin.auth, 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');

    await created(admin, { name: 'Newer', content: 'n' });
    const changed = await t.app.inject({
      method: 'GET',
      url: '/api/bot/config',
      headers: { ...admin.auth, 'if-none-match': etag },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
  });

  it('lets a viewer read but not change, and someone without config:read nothing', async () => {
    const admin = await t.loginAdmin();
    const item = await created(admin, { name: 'Shared', content: 'x' });
    const viewer = await t.signInAs(['viewer']);
    expect((await t.app.inject({ method: 'GET', url: base(), headers: viewer.auth })).statusCode).toBe(200);
    expectError(await create(viewer, { name: 'Nope', content: 'x' }), 403, 'forbidden');
    expectError(
      await update(viewer, item.id, { name: 'Shared', content: 'y', version: 1 }),
      403,
      'forbidden',
    );

    const role = await t.app.inject({
      method: 'POST',
      url: '/api/roles',
      headers: admin.auth,
      payload: { name: 'auditor', permissions: ['admin:audit:read'] },
    });
    expect(role.statusCode).toBe(201);
    const auditor = await t.signInAs(['auditor']);
    expectError(await t.app.inject({ method: 'GET', url: base(), headers: auditor.auth }), 403, 'forbidden');
    expectError(
      await t.app.inject({ method: 'GET', url: '/api/bot/config', headers: auditor.auth }),
      403,
      'forbidden',
    );
  });
});
