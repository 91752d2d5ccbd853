import type { RenderResult } from '@lumi/contract';
import { describe, expect, it } from 'vitest';
import { dialects, expectError, useTestApp, type Session } from './helper.js';
import { createChannel, createTemplate, MESSAGING } from './messaging-helper.js';
import { botKey } from './telemetry-helper.js';

describe.each(dialects)('rendering on %s', (dialect) => {
  const now = Date.parse('2026-11-22T12:00:00.000Z');
  const t = useTestApp(dialect, { app: { now: () => now } });

  const render = (auth: { authorization: string }, url: string, payload: object) =>
    t.app.inject({ method: 'POST', url: `${MESSAGING}${url}`, headers: auth, payload });
  const rendered = async (session: Session, url: string, payload: object) => {
    const res = await render(session.auth, url, payload);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<RenderResult>();
  };

  it('renders a saved template with sample data', async () => {
    const admin = await t.loginAdmin();
    const channel = await createChannel(t, admin);
    const template = await createTemplate(t, admin, {
      channel_id: channel.id,
      parse_mode: 'MarkdownV2',
      template_content:
        '*{{uppercase token_name}}* {{formatPercentage price_change_24h}}\nMC {{formatNumber market_cap}} · {{formatTimeAgo timestamp}}',
    });
    const result = await rendered(admin, `/templates/${template.id}/render`, {
      data: {
        token_name: 'pepe.x',
        price_change_24h: -2,
        market_cap: 999_999,
        timestamp: '2026-11-22T09:00:00Z',
      },
    });
    expect(result).toEqual({
      success: true,
      rendered: '*PEPE\\.X* \\-2\\.00%\nMC 1M · 3h ago',
      length: 'PEPE.X -2.00%\nMC 1M · 3h ago'.length,
      warnings: [],
      problems: [],
    });
    expectError(await render(admin.auth, '/templates/999999/render', { data: {} }), 404, 'not_found');
  });

  it('renders unsaved content for the editor preview', async () => {
    const admin = await t.loginAdmin();
    const result = await rendered(admin, '/render', {
      template_content: '<b>{{token_name}}</b> {{formatCurrency price_usd}}',
      data: { token_name: 'A & B', price_usd: 1234.5 },
    });
    expect(result).toMatchObject({ success: true, rendered: '<b>A &amp; B</b> $1,234.50', length: 15 });
    const defaults = await rendered(admin, '/render', { template_content: 'Hi' });
    expect(defaults).toMatchObject({ success: true, rendered: 'Hi' });
  });

  it('answers success: false with the problem and its place', async () => {
    const admin = await t.loginAdmin();
    const unknownHelper = await rendered(admin, '/render', {
      template_content: 'Line one\n{{formatMoney price_usd}}',
      parse_mode: 'HTML',
      data: {},
    });
    expect(unknownHelper).toMatchObject({ success: false, rendered: '', length: 0 });
    expect(unknownHelper.error).toMatch(/^Template line 2, column 3: Unknown helper 'formatMoney'/);
    expect(unknownHelper.problems[0]).toMatchObject({ source: 'template', line: 2, column: 3 });

    const syntax = await rendered(admin, '/render', { template_content: '{{#if x}}open', data: {} });
    expect(syntax.error).toContain('Template syntax error');

    const refused = await rendered(admin, '/render', {
      template_content: 'Up {{formatPercentage change}}!',
      parse_mode: 'MarkdownV2',
      data: { change: 5.5 },
    });
    expect(refused).toMatchObject({ success: false, rendered: 'Up \\+5\\.50%!' });
    expect(refused.error).toContain(
      "Rendered message line 1, column 12: Telegram would refuse this message (can't parse entities): Character '!' is reserved",
    );

    const missing = await rendered(admin, '/render', { template_content: 'Hi {{token_name}}.', data: {} });
    expect(missing).toMatchObject({ success: true, rendered: 'Hi .' });
    expect(missing.warnings).toEqual([
      "Template line 1, column 6: 'token_name' is not in the data, so {{token_name}} renders as nothing",
    ]);
  });

  it('stops a render that would block the server and answers 422 with the limit', async () => {
    const viewer = await t.signInAs(['viewer']);
    const rows = Array.from({ length: 200 }, (_, i) => i);
    const attack = {
      template_content: '{{#each rows}}{{#each ../rows}}{{this}},{{/each}}{{/each}}',
      parse_mode: 'HTML',
      data: { rows },
    };
    expect(JSON.stringify(attack).length).toBeLessThan(1024);
    const body = expectError(await render(viewer.auth, '/render', attack), 422, 'validation_failed');
    expect(body.errors?.[0]?.path).toBe('template_content');
    // Whichever limit it meets first: on a busy machine the 25 ms can run out before the loops do.
    expect(body.detail).toMatch(
      /^(The template ran more than 10,000 loop iterations|The message passed 16,384|Rendering took longer than 25 ms)/,
    );
    // The server is free at once.
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);

    const tooMuchData = { ...attack, template_content: 'hi', data: { blob: 'x'.repeat(70_000) } };
    const large = expectError(await render(viewer.auth, '/render', tooMuchData), 422, 'validation_failed');
    expect(large.errors).toEqual([{ path: 'data', message: 'Data must be at most 64 KB as JSON' }]);
  });

  it('validates the request', async () => {
    const admin = await t.loginAdmin();
    const body = expectError(
      await render(admin.auth, '/render', { template_content: 'x', parse_mode: 'html' }),
      422,
    );
    expect(body.errors?.[0]?.path).toBe('parse_mode');
    expectError(await render(admin.auth, '/render', { template_content: 'x', data: [1] }), 422);
  });

  it("renders for a bot's API key with the templates:read scope, and only that scope", async () => {
    const admin = await t.loginAdmin();
    const channel = await createChannel(t, admin);
    const template = await createTemplate(t, admin, {
      channel_id: channel.id,
      template_content: 'Hi {{token_name}}',
    });
    const key = await botKey(t, ['templates:read']);
    const res = await render(key, `/templates/${template.id}/render`, { data: { token_name: 'bot' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<RenderResult>().rendered).toBe('Hi bot');
    expect((await render(key, '/render', { template_content: 'x' })).statusCode).toBe(200);

    const ingestOnly = await botKey(t, ['ingest:write']);
    expectError(await render(ingestOnly, '/render', { template_content: 'x' }), 403, 'forbidden');
    // The key reaches the render routes only.
    const list = await t.app.inject({ method: 'GET', url: `${MESSAGING}/templates`, headers: key });
    expect([401, 403]).toContain(list.statusCode);
  });
});

describe.each(dialects)('the variable catalogue on %s', (dialect) => {
  const t = useTestApp(dialect);
  const call = (session: Session, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url: `${MESSAGING}${url}`, headers: session.auth, payload });
  type Variable = { id: number; variable_name: string; category: string; available_helpers: string[] };

  it('is seeded with the market variables and the schedules’ data sources, once', async () => {
    const viewer = await t.signInAs(['viewer']);
    const list = async () => (await call(viewer, 'GET', '/variables')).json<Variable[]>();
    const names = (await list()).map((v) => v.variable_name).sort();
    expect(names).toEqual([
      'active_lock_count',
      'active_locks',
      'alert_kind',
      'alert_rule_name',
      'alert_severity',
      'alert_started_at',
      'alert_state',
      'alert_summary',
      'alert_threshold',
      'alert_unit',
      'alert_url',
      'alert_value',
      'budget_date',
      'budgets',
      'error_count_24h',
      'exceeded_count',
      'holders',
      'market_cap',
      'price_change_24h',
      'price_usd',
      'providers',
      'telegram_status',
      'timestamp',
      'token_address',
      'token_name',
      'total_cost',
      'total_requests',
      'total_tokens',
      'trending_rank',
      'uptime_hours',
      'uptime_seconds',
      'usage_date',
      'volume_24h',
    ]);
    expect((await list()).find((v) => v.variable_name === 'price_usd')).toEqual({
      id: expect.any(Number),
      variable_name: 'price_usd',
      data_type: 'number',
      description: 'Price in US dollars',
      category: 'Market',
      example_value: '0.00001234',
      available_helpers: ['formatCurrency', 'formatNumber', 'default'],
    });
    await t.app.services.messaging.variables.seed();
    expect(await list()).toHaveLength(33);
  });

  it('is edited with templates:write', async () => {
    const admin = await t.loginAdmin();
    const created = await call(admin, 'POST', '/variables', {
      variable_name: 'liquidity_usd',
      data_type: 'number',
      available_helpers: ['formatCurrency', 'formatCurrency'],
    });
    expect(created.statusCode, created.body).toBe(201);
    const variable = created.json<Variable>();
    expect(variable).toMatchObject({
      category: 'General',
      available_helpers: ['formatCurrency'],
      example_value: null,
    });

    const changed = await call(admin, 'PUT', `/variables/${variable.id}`, {
      category: 'Market',
      example_value: '42',
    });
    expect(changed.json()).toMatchObject({
      variable_name: 'liquidity_usd',
      category: 'Market',
      example_value: '42',
    });
    expectError(await call(admin, 'POST', '/variables', { variable_name: 'liquidity_usd' }), 409, 'conflict');
    expect((await call(admin, 'DELETE', `/variables/${variable.id}`)).statusCode).toBe(200);
    expectError(await call(admin, 'DELETE', `/variables/${variable.id}`), 404);

    const viewer = await t.signInAs(['viewer']);
    expectError(await call(viewer, 'POST', '/variables', { variable_name: 'x' }), 403, 'forbidden');
  });

  it.each([
    [{ variable_name: '' }, 'variable_name'],
    [{ variable_name: '1st' }, 'variable_name'],
    [{ variable_name: 'with-dash' }, 'variable_name'],
    [{ variable_name: 'ok', data_type: 'money' }, 'data_type'],
    [{ variable_name: 'ok', available_helpers: ['formatMoney'] }, 'available_helpers.0'],
  ])('validates %j', async (payload, path) => {
    const admin = await t.loginAdmin();
    const body = expectError(await call(admin, 'POST', '/variables', payload), 422, 'validation_failed');
    expect(body.errors?.map((e) => e.path)).toContain(path);
  });
});
