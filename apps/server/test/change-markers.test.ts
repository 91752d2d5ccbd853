import { CHANGE_MARKERS_MAX, type ChangeMarker, type ChangeMarkers, type ConfigItem } from '@lumi/contract';
import { describe, expect, it } from 'vitest';
import type { NewAuditLog } from '../src/db/database.js';
import { dialects, expectError, useTestApp, type Session } from './helper.js';

/** Change markers (docs/operators/metrics.md, "Change markers"): the changes of a range, from the audit log, for the usage and latency charts. */

const NOW = Date.parse('2026-11-20T12:30:00.000Z');
const HOUR = 3600 * 1000;
const DAY = 24 * HOUR;
const iso = (ms: number) => new Date(ms).toISOString();
const range = (from: number, to: number) =>
  `from=${encodeURIComponent(iso(from))}&to=${encodeURIComponent(iso(to))}`;

describe.each(dialects)('change markers on %s', (dialect) => {
  let now = NOW;
  const t = useTestApp(dialect, { app: { now: () => now } });

  const markers = async (session: Session, query = '') => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/metrics/changes?${query}`,
      headers: session.auth,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<ChangeMarkers>();
  };
  const send = async (session: Session, method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) => {
    const res = await t.app.inject({ method, url: `/api${url}`, headers: session.auth, payload });
    expect(res.statusCode, res.body).toBeLessThan(300);
    return res;
  };
  const record = (fields: Partial<NewAuditLog>) =>
    t.app.db
      .insertInto('audit_logs')
      .values({
        created_at: iso(now),
        actor_id: null,
        actor_username: 'bulk',
        action: 'config.updated',
        resource_type: 'config_item',
        resource_id: null,
        resource_name: null,
        old_value: null,
        new_value: null,
        ip_address: null,
        user_agent: null,
        ...fields,
      })
      .execute();

  it('shows a personality edit, a budget, a price and a deleted item: who, what, when and where', async () => {
    const admin = await t.loginAdmin();
    now = NOW - 3 * HOUR;
    const created = await send(admin, 'POST', '/admin/api/config/personalities', {
      name: 'Lumi',
      content: 'Cheerful',
      tags: ['core'],
    });
    const item = created.json<ConfigItem>();
    now = NOW - 2 * HOUR;
    await send(admin, 'PUT', `/admin/api/config/personalities/${item.id}`, {
      name: 'Lumi',
      content: 'Cheerful, "careful", = calm',
      tags: ['core'],
      version: 1,
    });
    now = NOW - HOUR;
    await send(admin, 'POST', '/config/token-budgets/openai', { daily_token_limit: 100_000 });
    await send(admin, 'PUT', '/config/model-prices/gpt-4o', {
      input_usd_per_million: 2.5,
      output_usd_per_million: 10,
    });
    const mood = (
      await send(admin, 'POST', '/admin/api/config/moods', { name: 'Gone', content: 'x' })
    ).json<ConfigItem>();
    await send(admin, 'DELETE', `/admin/api/config/moods/${mood.id}?version=1`);
    now = NOW;

    // A viewer, who sees the charts, sees the markers; sign-ins and other changes are no markers.
    const viewer = await t.signInAs(['viewer']);
    const answer = await markers(viewer, range(NOW - 6 * HOUR, NOW));
    expect(answer).toMatchObject({
      from: '2026-11-20T06:00:00.000Z',
      to: '2026-11-20T13:00:00.000Z',
      truncated: false,
    });
    const view = (marker: ChangeMarker) => [
      marker.at,
      marker.user,
      marker.action,
      marker.summary,
      marker.link,
    ];
    expect(answer.changes.map(view)).toEqual([
      [
        iso(NOW - 3 * HOUR),
        'admin',
        'config.created',
        "Created personalities item 'Lumi'",
        `/config?tab=personalities&q=Lumi&history=${item.id}&revision=1`,
      ],
      [
        iso(NOW - 2 * HOUR),
        'admin',
        'config.updated',
        "Updated personalities item 'Lumi' (content)",
        `/config?tab=personalities&q=Lumi&history=${item.id}&revision=2`,
      ],
      [
        iso(NOW - HOUR),
        'admin',
        'token_budget.created',
        "Created token budget 'openai'",
        '/metrics?tab=token-budgets',
      ],
      [
        iso(NOW - HOUR),
        'admin',
        'model_price.set',
        "Set the price of 'gpt-4o': $2.5 input, $10 output per million tokens",
        '/metrics?tab=token-budgets',
      ],
      [iso(NOW - HOUR), 'admin', 'config.created', "Created moods item 'Gone'", null],
      [iso(NOW - HOUR), 'admin', 'config.deleted', "Deleted moods item 'Gone'", null],
    ]);
    expect(answer.changes.map((m) => m.id)).toEqual(
      [...answer.changes.map((m) => m.id)].sort((a, b) => a - b),
    );

    // A rename: the link follows the item's name now, the marker keeps the name it had.
    now = NOW + 10 * 60 * 1000;
    await send(admin, 'PUT', `/admin/api/config/personalities/${item.id}`, {
      name: 'Lumi 2',
      content: 'Cheerful, "careful", = calm',
      tags: ['core'],
      version: 2,
    });
    const renamed = await markers(viewer, range(NOW - 6 * HOUR, NOW + HOUR));
    expect(renamed.changes.at(-1)).toMatchObject({
      resource_name: 'Lumi 2',
      summary: "Updated personalities item 'Lumi 2' (name)",
      link: `/config?tab=personalities&q=Lumi+2&history=${item.id}&revision=3`,
    });
    expect(renamed.changes[0]).toMatchObject({
      resource_name: 'Lumi',
      link: `/config?tab=personalities&q=Lumi+2&history=${item.id}&revision=1`,
    });

    // Only the range: an hour before, nothing.
    expect((await markers(viewer, range(NOW - 10 * HOUR, NOW - 4 * HOUR))).changes).toEqual([]);
  });

  it('tells template versions and imports, and keeps hostile names as text', async () => {
    const admin = await t.loginAdmin();
    const hostile = `<img src=x onerror=alert(1)>', "--"\n=1+1`;
    await record({
      action: 'template.updated',
      resource_type: 'template',
      resource_id: '999999',
      resource_name: hostile,
      old_value: JSON.stringify({ version: 3, body: 'a' }),
      new_value: JSON.stringify({ version: 4, body: 'b', parse_mode: 'HTML' }),
    });
    await record({
      action: 'template.restored',
      resource_type: 'template',
      resource_id: '999999',
      resource_name: 'Daily',
      new_value: JSON.stringify({ version: 6, body: 'a', restored_from: 3 }),
    });
    await record({
      action: 'config.imported',
      resource_type: 'config_item',
      new_value: JSON.stringify({ domain: 'moods', created: 4, updated: 1 }),
    });
    await record({ action: 'auth.login', resource_type: 'session' });
    await record({ action: 'channel.updated', resource_type: 'channel' });
    // Text that is not JSON, as old entries may hold, still reads.
    await record({
      action: 'token_budget.deleted',
      resource_type: 'token_budget',
      resource_name: 'x',
      old_value: 'not json',
    });

    const answer = await markers(admin);
    expect(answer.changes.map((m) => [m.action, m.summary, m.version, m.link])).toEqual([
      ['template.updated', `Updated template '${hostile}' (body, parse_mode)`, 4, null],
      ['template.restored', "Restored template 'Daily' (version 3)", 6, null],
      ['config.imported', 'Imported moods items (4 created, 1 updated)', null, '/config?tab=moods'],
      ['token_budget.deleted', "Deleted token budget 'x'", null, '/metrics?tab=token-budgets'],
    ]);
  });

  it(`keeps the newest ${CHANGE_MARKERS_MAX} of a busy range and says it did`, async () => {
    const admin = await t.loginAdmin();
    const start = NOW - 20 * HOUR;
    await t.app.db
      .insertInto('audit_logs')
      .values(
        Array.from({ length: CHANGE_MARKERS_MAX + 20 }, (_, index) => ({
          created_at: iso(start + index * 60_000),
          actor_id: null,
          actor_username: 'bulk',
          action: 'config.updated',
          resource_type: 'config_item',
          resource_id: String(index),
          resource_name: `Item ${index}`,
          old_value: null,
          new_value: null,
          ip_address: null,
          user_agent: null,
        })),
      )
      .execute();
    const answer = await markers(admin, range(start, NOW));
    expect(answer.truncated).toBe(true);
    expect(answer.changes).toHaveLength(CHANGE_MARKERS_MAX);
    expect(answer.changes[0]!.resource_name).toBe('Item 20');
    expect(answer.changes.at(-1)!.resource_name).toBe(`Item ${CHANGE_MARKERS_MAX + 19}`);
    expect((await markers(admin, range(start, start + 60 * 60_000))).truncated).toBe(false);
  });

  it('refuses a bad range with 422 naming from, and a caller without metrics:read', async () => {
    const admin = await t.loginAdmin();
    for (const query of [
      range(NOW, NOW - HOUR),
      range(NOW, NOW),
      range(NOW - 93 * DAY, NOW),
      'from=yesterday',
      'to=2026-13-01T00:00:00Z',
    ]) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/metrics/changes?${query}`,
        headers: admin.auth,
      });
      const body = expectError(res, 422, 'validation_failed');
      expect(body.errors?.[0]?.path, query).toMatch(/^(from|to)$/);
    }
    expect((await markers(admin, range(NOW - 92 * DAY, NOW))).changes).toEqual([]);
    const nobody = await t.signInAs([]);
    expectError(
      await t.app.inject({ method: 'GET', url: '/api/metrics/changes', headers: nobody.auth }),
      403,
      'forbidden',
    );
    expectError(await t.app.inject({ method: 'GET', url: '/api/metrics/changes' }), 401, 'unauthenticated');
  });
});
