import { BUDGET_MESSAGES, type AuditLog, type ModelPrice, type TokenBudget } from '@lumi/contract';
import { describe, expect, it } from 'vitest';
import { dialects, expectError, useTestApp, type Session } from './helper.js';
import { botKey, events, ingest } from './telemetry-helper.js';

const BUDGETS = '/api/config/token-budgets';
const PRICES = '/api/config/model-prices';
const NOW = Date.parse('2026-11-20T12:00:00.000Z');

describe.each(dialects)('token budgets and model prices on %s', (dialect) => {
  let now = NOW;
  const t = useTestApp(dialect, { app: { now: () => now } });

  const send = (session: Session, method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: session.auth, payload });
  const budgets = async (session: Session) =>
    (await t.app.inject({ method: 'GET', url: BUDGETS, headers: session.auth })).json<TokenBudget[]>();
  const auditOf = async (session: Session, resourceType: string) =>
    (
      await t.app.inject({
        method: 'GET',
        url: `/api/admin/audit-logs?resource_type=${resourceType}`,
        headers: session.auth,
      })
    ).json<{ logs: AuditLog[] }>().logs;

  it('creates, changes and deletes a budget, and audits each step', async () => {
    now = NOW;
    const admin = await t.loginAdmin();
    const created = await send(admin, 'POST', `${BUDGETS}/openai`, { daily_token_limit: 100_000 });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json<TokenBudget>()).toEqual({
      provider: 'openai',
      daily_token_limit: 100_000,
      daily_cost_limit: null,
      current_usage: { tokens_used: 0, cost_incurred: 0, usage_percentage: 0 },
      is_active: true,
      updated_at: new Date(NOW).toISOString(),
      updated_by: 'admin',
    });
    expectError(await send(admin, 'POST', `${BUDGETS}/openai`, { daily_cost_limit: 5 }), 409, 'conflict');

    const changed = await send(admin, 'PUT', `${BUDGETS}/openai`, {
      daily_token_limit: 50_000,
      daily_cost_limit: 2.5,
      is_active: false,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json<TokenBudget>()).toMatchObject({
      daily_token_limit: 50_000,
      daily_cost_limit: 2.5,
      is_active: false,
    });
    expect((await budgets(admin)).map((b) => b.provider)).toEqual(['openai']);

    expect((await send(admin, 'DELETE', `${BUDGETS}/openai`)).json()).toEqual({ ok: true });
    expect(await budgets(admin)).toEqual([]);
    expectError(await send(admin, 'DELETE', `${BUDGETS}/openai`), 404, 'not_found');
    expectError(await send(admin, 'PUT', `${BUDGETS}/openai`, { daily_token_limit: 1 }), 404, 'not_found');

    const logs = await auditOf(admin, 'token_budget');
    expect(logs.map((l) => [l.action, l.resource_id, l.user])).toEqual([
      ['token_budget.deleted', 'openai', 'admin'],
      ['token_budget.updated', 'openai', 'admin'],
      ['token_budget.created', 'openai', 'admin'],
    ]);
    expect(logs[1]).toMatchObject({
      old_value: { provider: 'openai', daily_token_limit: 100_000, daily_cost_limit: null, is_active: true },
      new_value: { provider: 'openai', daily_token_limit: 50_000, daily_cost_limit: 2.5, is_active: false },
    });
  });

  it.each([
    [{}, 'daily_token_limit', BUDGET_MESSAGES.limitRequired],
    [{ daily_token_limit: null, daily_cost_limit: null }, 'daily_token_limit', BUDGET_MESSAGES.limitRequired],
    [{ daily_token_limit: 0 }, 'daily_token_limit', undefined],
    [{ daily_token_limit: 1.5 }, 'daily_token_limit', undefined],
    [{ daily_cost_limit: -1 }, 'daily_cost_limit', undefined],
    [{ daily_cost_limit: 1, is_active: 'yes' }, 'is_active', undefined],
  ])('refuses the budget %j', async (payload, path, message) => {
    const admin = await t.loginAdmin();
    const body = expectError(
      await send(admin, 'POST', `${BUDGETS}/openai`, payload),
      422,
      'validation_failed',
    );
    expect(body.errors!.map((e) => e.path)).toContain(path);
    if (message) expect(body.errors).toContainEqual({ path, message });
  });

  it.each([
    [BUDGETS, 'provider', 'Provider is required'],
    [PRICES, 'model', 'Model is required'],
  ])('refuses a blank name under %s with the wording of every other form', async (base, path, message) => {
    const admin = await t.loginAdmin();
    const payload = { daily_token_limit: 1, input_usd_per_million: 1, output_usd_per_million: 1 };
    const body = expectError(await send(admin, 'PUT', `${base}/%20%20`, payload), 422, 'validation_failed');
    expect(body.errors).toContainEqual({ path, message });
  });

  it("shows today's usage: the larger share of the two limits, not capped", async () => {
    now = NOW;
    const admin = await t.loginAdmin();
    await send(admin, 'POST', `${BUDGETS}/openai`, { daily_token_limit: 1000, daily_cost_limit: 1 });
    await send(admin, 'POST', `${BUDGETS}/gemini`, { daily_cost_limit: 0.5 });
    await ingest(t.app, await botKey(t), [
      events.llmCall(NOW - 60_000, { input_tokens: 300, output_tokens: 100, cost_usd: 0.9 }),
      events.llmCall('2026-11-19T23:59:59.000Z', { input_tokens: 5000, cost_usd: 5 }), // yesterday
      events.llmCall(NOW, {
        provider: 'gemini',
        model: 'gemini-pro',
        input_tokens: 10,
        output_tokens: 0,
        cost_usd: 0.75,
      }),
    ]);
    const list = await budgets(admin);
    expect(list.map((b) => [b.provider, b.current_usage])).toEqual([
      ['gemini', { tokens_used: 10, cost_incurred: 0.75, usage_percentage: 150 }],
      ['openai', { tokens_used: 400, cost_incurred: 0.9, usage_percentage: 90 }],
    ]);
  });

  it('shows usage ingested after the list was last read, on the next read', async () => {
    now = NOW;
    const admin = await t.loginAdmin();
    await send(admin, 'POST', `${BUDGETS}/openai`, { daily_token_limit: 1000 });
    expect((await budgets(admin))[0]!.current_usage.tokens_used).toBe(0);
    await ingest(t.app, await botKey(t), [events.llmCall(NOW, { input_tokens: 20, output_tokens: 0 })]);
    expect((await budgets(admin))[0]!.current_usage.tokens_used).toBe(20);
    await send(admin, 'PUT', `${BUDGETS}/openai`, { daily_token_limit: 40 });
    expect((await budgets(admin))[0]!.current_usage.usage_percentage).toBe(50);
  });

  it('lets viewers read budgets and prices, operators change them, and nobody else', async () => {
    const viewer = await t.signInAs(['viewer']);
    expect((await t.app.inject({ method: 'GET', url: BUDGETS, headers: viewer.auth })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: PRICES, headers: viewer.auth })).statusCode).toBe(200);
    const refused = expectError(
      await send(viewer, 'POST', `${BUDGETS}/openai`, { daily_token_limit: 5 }),
      403,
      'forbidden',
    );
    expect(refused.detail).toContain('budgets:write');
    expectError(
      await send(viewer, 'PUT', `${PRICES}/gpt-4o`, { input_usd_per_million: 1, output_usd_per_million: 1 }),
      403,
    );
    const operator = await t.signInAs(['operator']);
    expect((await send(operator, 'POST', `${BUDGETS}/openai`, { daily_token_limit: 5 })).statusCode).toBe(
      201,
    );
  });

  it('sets model prices, lists them by name and audits each change', async () => {
    now = NOW;
    const admin = await t.loginAdmin();
    expect((await t.app.inject({ method: 'GET', url: PRICES, headers: admin.auth })).json()).toEqual([]);
    const first = await send(admin, 'PUT', `${PRICES}/gpt-4o`, {
      input_usd_per_million: 2.5,
      output_usd_per_million: 10,
    });
    expect(first.statusCode, first.body).toBe(200);
    await send(admin, 'PUT', `${PRICES}/claude-3-5-sonnet`, {
      input_usd_per_million: 3,
      output_usd_per_million: 15,
    });
    now = NOW + 1000;
    const second = await send(admin, 'PUT', `${PRICES}/gpt-4o`, {
      input_usd_per_million: 2,
      output_usd_per_million: 8,
    });
    expect(second.json<ModelPrice>()).toEqual({
      model: 'gpt-4o',
      input_usd_per_million: 2,
      output_usd_per_million: 8,
      source: 'operator',
      catalogue: null,
      cache_read_usd_per_million: null,
      unpriced_requests: 0,
      updated_at: new Date(NOW + 1000).toISOString(),
      updated_by: 'admin',
    });
    // A model name with a slash travels percent-encoded.
    const slashed = await send(admin, 'PUT', `${PRICES}/${encodeURIComponent('models/gemini-pro')}`, {
      input_usd_per_million: 0.5,
      output_usd_per_million: 1.5,
    });
    expect(slashed.json<ModelPrice>().model).toBe('models/gemini-pro');

    const list = (await t.app.inject({ method: 'GET', url: PRICES, headers: admin.auth })).json<
      ModelPrice[]
    >();
    expect(list.map((p) => [p.model, p.input_usd_per_million, p.output_usd_per_million])).toEqual([
      ['claude-3-5-sonnet', 3, 15],
      ['gpt-4o', 2, 8],
      ['models/gemini-pro', 0.5, 1.5],
    ]);
    const logs = await auditOf(admin, 'model_price');
    expect(logs).toHaveLength(4);
    expect(logs[1]).toMatchObject({
      action: 'model_price.set',
      resource_id: 'gpt-4o',
      old_value: { model: 'gpt-4o', input_usd_per_million: 2.5, output_usd_per_million: 10 },
      new_value: { model: 'gpt-4o', input_usd_per_million: 2, output_usd_per_million: 8 },
    });
    expect(logs[3]).toMatchObject({ old_value: null });

    const body = expectError(
      await send(admin, 'PUT', `${PRICES}/gpt-4o`, { input_usd_per_million: -1 }),
      422,
    );
    expect(body.errors!.map((e) => e.path).sort()).toEqual([
      'input_usd_per_million',
      'output_usd_per_million',
    ]);
  });
});

describe.each(dialects)('budget days in a time zone other than UTC on %s', (dialect) => {
  let now = NOW;

  /** An app whose LUMI_TIMEZONE is `timezone`, and a function giving today's usage after some calls. */
  const inZone = (timezone: string) => {
    const t = useTestApp(dialect, { app: { now: () => now, telemetry: { timezone } } });
    return async (calls: Array<[string, number]>) => {
      const admin = await t.loginAdmin();
      const res = await t.app.inject({
        method: 'POST',
        url: `${BUDGETS}/openai`,
        headers: admin.auth,
        payload: { daily_token_limit: 1_000_000 },
      });
      expect(res.statusCode, res.body).toBe(201);
      await ingest(
        t.app,
        await botKey(t),
        calls.map(([ts, tokens]) => events.llmCall(ts, { input_tokens: tokens, output_tokens: 0 })),
      );
      const list = (await t.app.inject({ method: 'GET', url: BUDGETS, headers: admin.auth })).json<
        TokenBudget[]
      >();
      return list[0]!.current_usage.tokens_used;
    };
  };

  describe('America/New_York', () => {
    const usageOf = inZone('America/New_York');

    it('starts the day at local midnight (05:00 UTC in winter)', async () => {
      now = Date.parse('2026-11-20T12:00:00.000Z'); // 07:00 in New York
      expect(
        await usageOf([
          ['2026-11-20T04:59:59.000Z', 1], // 19 November, 23:59:59 local
          ['2026-11-20T05:00:00.000Z', 10], // 20 November, midnight local
          ['2026-11-20T11:59:00.000Z', 100],
          ['2026-11-19T12:00:00.000Z', 1000], // a day earlier
        ]),
      ).toBe(110);
    });

    it('keeps counting until local midnight, past UTC midnight', async () => {
      now = Date.parse('2026-11-21T03:30:00.000Z'); // 20 November, 22:30 in New York
      expect(
        await usageOf([
          ['2026-11-20T05:00:00.000Z', 10], // 20 November, midnight local
          ['2026-11-21T00:30:00.000Z', 100], // 20 November, 19:30 local, the next day in UTC
          ['2026-11-20T04:00:00.000Z', 1000], // 19 November, 23:00 local
        ]),
      ).toBe(110);
    });
  });

  describe('Asia/Kolkata', () => {
    const usageOf = inZone('Asia/Kolkata');

    it('counts the hour that straddles midnight for the new day, the offset not being whole', async () => {
      now = Date.parse('2026-11-20T12:00:00.000Z'); // 17:30 in Kolkata; the day began at 18:30 UTC
      expect(
        await usageOf([
          ['2026-11-19T17:59:00.000Z', 1], // 19 November, 23:29 local: the previous day
          ['2026-11-19T18:10:00.000Z', 10], // 19 November, 23:40 local, in the 18:00 UTC hour: counted today
          ['2026-11-19T18:30:00.000Z', 100], // 20 November, midnight local
          ['2026-11-20T11:00:00.000Z', 1000],
        ]),
      ).toBe(1110);
    });
  });
});
