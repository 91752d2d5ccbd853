import type { LlmUsage, ModelPrice } from '@lumi/contract';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { dialects, expectError, useTestApp } from './helper.js';
import { botKey, events, HOUR, ingest, ingestRequest, MINUTE } from './telemetry-helper.js';

const NOW = Date.parse('2026-11-20T12:30:00.000Z');
const DAY = 24 * HOUR;

/** Each database with batches stored in the server's thread, and by the ingest worker as `npm start` runs. */
const storages = [false, true].flatMap((ingestWorker) =>
  dialects.map((dialect) => ({
    name: ingestWorker ? `${dialect} (ingest worker)` : dialect,
    dialect,
    ingestWorker,
  })),
);

describe.each(storages)('telemetry ingestion on $name', ({ dialect, ingestWorker }) => {
  let now = NOW;
  const t = useTestApp(dialect, { ingestWorker, app: { now: () => now } });

  const llmUsage = async (days = 30) => {
    const admin = await t.loginAdmin();
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/metrics/llm-usage?days=${days}`,
      headers: admin.auth,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<LlmUsage>();
  };
  const rowCount = async (table: 'llm_calls' | 'heartbeats' | 'bot_errors') => {
    const row = await t.app.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };

  it('stores one valid event of each type', async () => {
    now = NOW;
    const key = await botKey(t);
    const result = await ingest(t.app, key, [
      events.llmCall(NOW - MINUTE),
      events.integrationCall(NOW - MINUTE),
      events.cacheStats(NOW - MINUTE),
      events.heartbeat(NOW - MINUTE, {
        active_locks: [{ name: 'poster', holder: 'worker-1', since: '2026-11-20T13:00:00+01:00' }],
      }),
      events.error(NOW - MINUTE),
      events.marketData(NOW - MINUTE),
    ]);
    expect(result).toEqual({ accepted: 6, duplicates: 0, rejected: [], budgets: [] });
    const admin = await t.loginAdmin();
    const health = await t.app.inject({ method: 'GET', url: '/api/metrics/bot-health', headers: admin.auth });
    expect(health.json()).toMatchObject({
      error_count_24h: 1,
      active_locks: [{ name: 'poster', holder: 'worker-1', since: '2026-11-20T12:00:00.000Z' }],
    });
  });

  it('accepts the valid events of a batch and reports each invalid one by index', async () => {
    now = NOW;
    const key = await botKey(t);
    const result = await ingest(t.app, key, [
      events.llmCall(NOW),
      'not an event',
      { type: 'page_view', ts: new Date(NOW).toISOString() },
      events.llmCall(NOW, { input_tokens: -1 }),
      events.llmCall(NOW, { provider: undefined }),
      events.integrationCall(NOW, { status: 'maybe' }),
      events.heartbeat(NOW, { ts: 'yesterday' }),
      events.error(NOW + 6 * MINUTE),
      events.error(NOW - 401 * DAY),
      events.error(NOW + 4 * MINUTE),
      events.cacheStats(NOW, { hits: 1.5, misses: -2, entries: 'many', avg_response_time_cached_ms: -1 }),
    ]);
    expect(result.accepted).toBe(2);
    expect(result.duplicates).toBe(0);
    expect(result.rejected).toEqual([
      { index: 1, detail: 'An event must be a JSON object' },
      {
        index: 2,
        detail:
          'type must be one of llm_call, integration_call, cache_stats, heartbeat, error, market_data, feedback',
      },
      { index: 3, detail: expect.stringMatching(/^input_tokens: /) },
      { index: 4, detail: expect.stringMatching(/^provider: /) },
      { index: 5, detail: expect.stringMatching(/^status: /) },
      { index: 6, detail: 'ts: Must be an ISO 8601 time with Z or an offset' },
      { index: 7, detail: "ts is 6 min ahead of the server's clock; check the bot's clock" },
      { index: 8, detail: 'ts is older than the 400 days of history Lumi keeps' },
      { index: 10, detail: expect.stringMatching(/^hits: .*; misses: .*; entries: .*; and 1 more$/) },
    ]);
  });

  it('counts a retried batch as duplicates and stores nothing twice', async () => {
    now = NOW;
    const key = await botKey(t);
    const batch = [
      events.llmCall(NOW - HOUR, { id: 'call-1', input_tokens: 1000, output_tokens: 0 }),
      events.llmCall(NOW, { id: 'call-2', input_tokens: 10, output_tokens: 0 }),
      events.error(NOW, { id: 'call-1' }), // ids are per type: this is another event
      events.heartbeat(NOW),
    ];
    expect(await ingest(t.app, key, batch)).toMatchObject({ accepted: 4, duplicates: 0, rejected: [] });
    expect(await ingest(t.app, key, batch)).toMatchObject({ accepted: 1, duplicates: 3, rejected: [] });
    // The same id twice in one batch: the first is kept.
    const twice = await ingest(t.app, key, [
      events.llmCall(NOW, { id: 'call-3', input_tokens: 5, output_tokens: 0 }),
      events.llmCall(NOW, { id: 'call-3', input_tokens: 7, output_tokens: 0 }),
    ]);
    expect(twice).toMatchObject({ accepted: 1, duplicates: 1 });
    // An event is its type, id and time: the same id at another time is another event.
    const later = await ingest(t.app, key, [
      events.llmCall(NOW - MINUTE, { id: 'call-3', input_tokens: 0, output_tokens: 0 }),
    ]);
    expect(later).toMatchObject({ accepted: 1, duplicates: 0 });

    const usage = await llmUsage();
    expect(usage.totals).toEqual({ tokens: 1015, cost: 0.04, requests: 4 });
    expect(await rowCount('llm_calls')).toBe(4);
    expect(await rowCount('heartbeats')).toBe(2);
  });

  it('takes at most 1,000 events per batch', async () => {
    now = NOW;
    const key = await botKey(t);
    const batch = Array.from({ length: 1000 }, (_, i) =>
      events.llmCall(NOW - i * 1000, { id: `e${i}`, model: `m${i % 7}` }),
    );
    expect(await ingest(t.app, key, batch)).toMatchObject({ accepted: 1000, duplicates: 0 });
    expect((await llmUsage()).totals.requests).toBe(1000);

    const body = expectError(
      await ingestRequest(t.app, key, [...batch, events.llmCall(NOW)]),
      422,
      'validation_failed',
    );
    expect(body.errors).toContainEqual({ path: 'events', message: 'At most 1,000 events per batch' });
  });

  it('refuses a body over 1 MB with 413', async () => {
    now = NOW;
    const key = await botKey(t);
    const big = events.error(NOW, { message: 'x'.repeat(3000) });
    const res = await ingestRequest(
      t.app,
      key,
      Array.from({ length: 400 }, () => big),
    );
    expectError(res, 413, 'payload_too_large');
  });

  it('costs calls without cost_usd from the model price table', async () => {
    now = NOW;
    const admin = await t.loginAdmin();
    const price = await t.app.inject({
      method: 'PUT',
      url: '/api/config/model-prices/gemini-1.5-pro',
      headers: admin.auth,
      payload: { input_usd_per_million: 1.25, output_usd_per_million: 5 },
    });
    expect(price.statusCode, price.body).toBe(200);
    const key = await botKey(t);
    await ingest(t.app, key, [
      // 1,000,000 × 1.25 / 1e6 + 200,000 × 5 / 1e6 = 2.25
      events.llmCall(NOW, {
        model: 'gemini-1.5-pro',
        input_tokens: 1_000_000,
        output_tokens: 200_000,
        cost_usd: undefined,
      }),
      // A cost the bot sends wins over the price table.
      events.llmCall(NOW, {
        model: 'gemini-1.5-pro',
        input_tokens: 1_000_000,
        output_tokens: 0,
        cost_usd: 0.5,
      }),
      // No price and no cost: 0.
      events.llmCall(NOW, {
        model: 'unpriced-model',
        input_tokens: 1000,
        output_tokens: 0,
        cost_usd: undefined,
      }),
    ]);
    expect((await llmUsage()).totals.cost).toBe(2.75);
  });

  it('prices calls by the built-in catalogue, dated names included, with an operator price first', async () => {
    now = NOW;
    const admin = await t.loginAdmin();
    const key = await botKey(t);
    const call = (model: string, extra: object = {}) =>
      events.llmCall(NOW, {
        provider: 'openai',
        model,
        input_tokens: 1_000_000,
        output_tokens: 100_000,
        cost_usd: undefined,
        ...extra,
      });
    // The catalogue: gpt-4o-mini at $0.15 in and $0.60 out per million, under its dated name too.
    await ingest(t.app, key, [
      call('gpt-4o-mini'),
      call('gpt-4o-mini', { response_model: 'gpt-4o-mini-2024-07-18' }),
    ]);
    expect((await llmUsage()).totals.cost).toBe(0.42);
    // Cached input at the catalogue's cache price: 0.5M × $0.15 + 0.5M × $0.075 + 0.1M × $0.60 = $0.1725.
    await ingest(t.app, key, [call('gpt-4o-mini', { cache_read_tokens: 500_000 })]);
    expect((await llmUsage()).totals.cost).toBe(0.5925);
    // An operator's price for the undated name wins, for the dated name as well.
    const put = await t.app.inject({
      method: 'PUT',
      url: '/api/config/model-prices/gpt-4o-mini',
      headers: admin.auth,
      payload: { input_usd_per_million: 1, output_usd_per_million: 10 },
    });
    expect(put.statusCode, put.body).toBe(200);
    await ingest(t.app, key, [call('gpt-4o-mini', { response_model: 'gpt-4o-mini-2024-07-18' })]);
    expect((await llmUsage()).totals.cost).toBe(2.5925);
    // A model nobody prices, and a call without usage, are counted as unpriced, never silently free.
    await ingest(t.app, key, [
      call('in-house-llm'),
      call('gpt-4o-mini', { input_tokens: 0, output_tokens: 0, usage_known: false }),
    ]);
    const usage = await llmUsage();
    expect(usage.totals).toMatchObject({ requests: 6, cost: 2.5925 });
    expect(usage.unpriced_requests).toBe(2);
  });

  it('lists where each price comes from, and lets an operator override and restore the catalogue', async () => {
    now = NOW;
    const admin = await t.loginAdmin();
    const key = await botKey(t);
    await ingest(t.app, key, [
      events.llmCall(NOW, { provider: 'openai', model: 'gpt-4o-mini', cost_usd: undefined }),
      events.llmCall(NOW, { provider: 'acme', model: 'in-house-llm', cost_usd: undefined }),
    ]);
    const prices = async () =>
      (await t.app.inject({ method: 'GET', url: '/api/config/model-prices', headers: admin.auth })).json<
        ModelPrice[]
      >();
    expect(await prices()).toEqual([
      {
        model: 'gpt-4o-mini',
        source: 'catalogue',
        catalogue: { name: expect.stringMatching(/^genai-prices \d+\.\d+\.\d+$/), model: 'gpt-4o-mini' },
        input_usd_per_million: 0.15,
        output_usd_per_million: 0.6,
        cache_read_usd_per_million: 0.075,
        unpriced_requests: 0,
        updated_at: null,
        updated_by: null,
      },
      expect.objectContaining({
        model: 'in-house-llm',
        source: 'none',
        catalogue: null,
        unpriced_requests: 1,
      }),
    ]);
    await t.app.inject({
      method: 'PUT',
      url: '/api/config/model-prices/gpt-4o-mini',
      headers: admin.auth,
      payload: { input_usd_per_million: 1, output_usd_per_million: 2 },
    });
    expect((await prices()).map((p) => [p.model, p.source])).toEqual([
      ['gpt-4o-mini', 'operator'],
      ['in-house-llm', 'none'],
    ]);
    const removed = await t.app.inject({
      method: 'DELETE',
      url: '/api/config/model-prices/gpt-4o-mini',
      headers: admin.auth,
    });
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await prices())[0]).toMatchObject({ model: 'gpt-4o-mini', source: 'catalogue' });
    expectError(
      await t.app.inject({
        method: 'DELETE',
        url: '/api/config/model-prices/gpt-4o-mini',
        headers: admin.auth,
      }),
      404,
      'not_found',
    );
  });

  it('tells the bot how its token budgets stand', async () => {
    now = NOW;
    const admin = await t.loginAdmin();
    for (const [provider, payload] of [
      ['openai', { daily_token_limit: 1000 }],
      ['gemini', { daily_cost_limit: 2 }],
      ['mistral', { daily_token_limit: 10, is_active: false }],
    ] as const) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/config/token-budgets/${provider}`,
        headers: admin.auth,
        payload,
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    const key = await botKey(t);
    const first = await ingest(t.app, key, [
      events.llmCall(NOW, { provider: 'openai', input_tokens: 600, output_tokens: 0 }),
    ]);
    expect(first.budgets).toEqual([
      { provider: 'gemini', usage_percentage: 0, exceeded: false },
      { provider: 'openai', usage_percentage: 60, exceeded: false },
    ]);
    const second = await ingest(t.app, key, [
      events.llmCall(NOW, { provider: 'openai', input_tokens: 400, output_tokens: 0 }),
      events.llmCall(NOW, { provider: 'gemini', model: 'gemini-pro', cost_usd: 1 }),
      events.llmCall(NOW, { provider: 'mistral', input_tokens: 1000 }),
    ]);
    expect(second.budgets).toEqual([
      { provider: 'gemini', usage_percentage: 50, exceeded: false },
      { provider: 'openai', usage_percentage: 100, exceeded: true },
    ]);
  });

  it('stores nothing of a batch that fails', async () => {
    now = NOW;
    const key = await botKey(t);
    // Break the last table the batch writes, so the failure comes after the other inserts and upserts.
    await sql`DROP TABLE market_data_reports`.execute(t.app.db);
    const res = await ingestRequest(t.app, key, [
      events.llmCall(NOW),
      events.error(NOW),
      events.marketData(NOW),
    ]);
    expectError(res, 500, 'internal_error');
    expect((await llmUsage()).totals.requests).toBe(0);
    expect(await rowCount('llm_calls')).toBe(0);
    expect(await rowCount('bot_errors')).toBe(0);
  });

  it('refuses users and anonymous callers: the endpoint is for bot keys', async () => {
    now = NOW;
    const admin = await t.loginAdmin();
    const forUser = expectError(
      await t.app.inject({
        method: 'POST',
        url: '/api/ingest/events',
        headers: admin.auth,
        payload: { events: [] },
      }),
      403,
      'forbidden',
    );
    expect(forUser.detail).toMatch(/bot API keys with the 'ingest:write' scope; users cannot call it/);
    expectError(
      await t.app.inject({ method: 'POST', url: '/api/ingest/events', payload: { events: [] } }),
      401,
      'unauthenticated',
    );
    const reader = await botKey(t, ['config:read']);
    const noScope = expectError(await ingestRequest(t.app, reader, []), 403, 'forbidden');
    expect(noScope.detail).toContain("'ingest:write'");
  });

  it('prunes raw events after RETENTION_DAYS and rollups after 400 days', async () => {
    now = NOW;
    const key = await botKey(t);
    await ingest(t.app, key, [
      events.llmCall(NOW - 31 * DAY, { input_tokens: 7, output_tokens: 0 }),
      events.llmCall(NOW - HOUR),
    ]);
    expect(await t.app.services.telemetryStore.retention.prune()).toMatchObject({ events: 1, rollups: 0 });
    expect(await rowCount('llm_calls')).toBe(1);
    // The rollup of the pruned call still counts.
    expect((await llmUsage(40)).totals.requests).toBe(2);

    now = NOW + 370 * DAY;
    // The hour's usage row and its latency histogram's one bucket.
    expect(await t.app.services.telemetryStore.retention.prune()).toMatchObject({ events: 1, rollups: 2 });
    expect((await llmUsage(400)).totals.requests).toBe(1);
  });

  it('writes minute rollups in the ingest transaction and prunes them after two days', async () => {
    now = NOW;
    const key = await botKey(t);
    await ingest(t.app, key, [
      events.llmCall(NOW - 3 * DAY),
      events.llmCall(NOW - MINUTE, { success: false, cost_usd: 0.5 }),
      events.llmCall(NOW - MINUTE + 30_000, { cost_usd: 0.25 }),
      events.integrationCall(NOW - MINUTE, { status: 'error' }),
      events.cacheStats(NOW - MINUTE),
      events.error(NOW - 2 * MINUTE, { source: 'poster' }),
    ]);
    // A retried event is a duplicate: the minute rollups count it once, like the hourly ones.
    await ingest(t.app, key, [events.error(NOW - 2 * MINUTE, { source: 'poster', id: 'e-1' })]);
    await ingest(t.app, key, [events.error(NOW - 2 * MINUTE, { source: 'poster', id: 'e-1' })]);
    const minute = (ms: number) => new Date(Math.floor(ms / MINUTE) * MINUTE).toISOString();
    const llm = await t.app.db.selectFrom('llm_usage_minute').selectAll().orderBy('minute').execute();
    expect(llm.map((r) => [r.minute, Number(r.requests), Number(r.failed_requests), r.cost_usd])).toEqual([
      [minute(NOW - 3 * DAY), 1, 0, 0.01],
      [minute(NOW - MINUTE), 2, 1, 0.75],
    ]);
    const integration = await t.app.db.selectFrom('integration_minute').selectAll().execute();
    expect(integration.map((r) => [r.minute, Number(r.total_calls), Number(r.error_count)])).toEqual([
      [minute(NOW - MINUTE), 1, 1],
    ]);
    const cache = await t.app.db.selectFrom('cache_minute').selectAll().execute();
    expect(cache.map((r) => [r.minute, Number(r.hits), Number(r.misses)])).toEqual([
      [minute(NOW - MINUTE), 8, 2],
    ]);
    const errors = await t.app.db.selectFrom('error_minute').selectAll().execute();
    expect(errors.map((r) => [r.minute, r.source, Number(r.errors)])).toEqual([
      [minute(NOW - 2 * MINUTE), 'poster', 2],
    ]);

    // The call of three days ago goes; the hourly rollups keep it.
    expect(await t.app.services.telemetryStore.retention.prune()).toMatchObject({
      minute_rollups: 1,
      rollups: 0,
    });
    expect(await t.app.db.selectFrom('llm_usage_minute').select('minute').execute()).toEqual([
      { minute: minute(NOW - MINUTE) },
    ]);
    expect((await llmUsage(5)).totals.requests).toBe(3);

    now = NOW + 2 * DAY;
    expect(await t.app.services.telemetryStore.retention.prune()).toMatchObject({ minute_rollups: 4 });
    for (const table of ['llm_usage_minute', 'integration_minute', 'cache_minute', 'error_minute'] as const) {
      expect(await t.app.db.selectFrom(table).selectAll().execute()).toEqual([]);
    }
  });
});
