import type {
  BotHealth,
  CacheMetrics,
  GeminiUsage,
  IntegrationMetrics,
  LlmUsage,
  MarketDataStatus,
} from '@lumi/contract';
import { describe, expect, it } from 'vitest';
import { dialects, expectError, useTestApp } from './helper.js';
import { adminGet, botKey, events, HOUR, ingest, MINUTE, reportAll } from './telemetry-helper.js';

const NOW = Date.parse('2026-11-20T12:30:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

describe.each(dialects)('metrics on %s', (dialect) => {
  let now = NOW;
  const t = useTestApp(dialect, { app: { now: () => now } });

  const get = <T>(url: string) => adminGet<T>(t, url);
  const report = async (list: unknown[]) => void (await reportAll(t, list));

  describe('GET /api/metrics/bot-health', () => {
    it('says no_heartbeat before the first heartbeat', async () => {
      now = NOW;
      expect(await get<BotHealth>('/api/metrics/bot-health')).toEqual({
        telegram_status: 'no_heartbeat',
        uptime_seconds: 0,
        error_count_24h: 0,
        active_locks: [],
      });
    });

    it('reports the latest heartbeat and the errors of the last 24 hours', async () => {
      now = NOW;
      const lock = { name: 'daily-digest', holder: 'worker-2', since: iso(NOW - 5 * MINUTE) };
      await report([
        events.heartbeat(NOW - 30_000, { started_at: iso(NOW - 3 * HOUR - 10_000), active_locks: [lock] }),
        // An older heartbeat sent later does not replace the latest.
        events.heartbeat(NOW - 10 * MINUTE, { telegram_status: 'disconnected' }),
        events.error(NOW - HOUR),
        events.error(NOW - HOUR, { source: 'poster' }),
        events.error(NOW - 23 * HOUR),
        events.error(NOW - 25 * HOUR),
      ]);
      expect(await get<BotHealth>('/api/metrics/bot-health')).toEqual({
        telegram_status: 'connected',
        uptime_seconds: 3 * 3600 + 10,
        error_count_24h: 3,
        active_locks: [lock],
      });
    });

    it('says no_heartbeat once the latest heartbeat is older than 2 minutes', async () => {
      now = NOW;
      await report([events.heartbeat(NOW, { active_locks: [{ name: 'a', holder: 'b', since: iso(NOW) }] })]);
      now = NOW + 120_000;
      expect((await get<BotHealth>('/api/metrics/bot-health')).telegram_status).toBe('connected');
      now = NOW + 120_001;
      expect(await get<BotHealth>('/api/metrics/bot-health')).toEqual({
        telegram_status: 'no_heartbeat',
        uptime_seconds: 0,
        error_count_24h: 0,
        active_locks: [],
      });
    });
  });

  describe('GET /api/metrics/llm-usage', () => {
    it('sums tokens and cost per day and provider, with zeros on quiet days, and totals', async () => {
      now = NOW;
      await report([
        events.llmCall('2026-11-19T23:59:59.999Z', { input_tokens: 100, output_tokens: 50, cost_usd: 0.01 }),
        events.llmCall('2026-11-20T00:00:00.000Z', { input_tokens: 10, output_tokens: 5, cost_usd: 0.002 }),
        events.llmCall('2026-11-20T12:00:00.000Z', { input_tokens: 20, output_tokens: 0, cost_usd: 0.003 }),
        events.llmCall('2026-11-20T09:00:00.000Z', {
          provider: 'gemini',
          model: 'gemini-pro',
          input_tokens: 7,
          output_tokens: 3,
          cost_usd: 0.1,
        }),
        events.llmCall('2026-11-17T12:00:00.000Z', { input_tokens: 999 }), // before the 3-day window
      ]);
      const usage = await get<LlmUsage>('/api/metrics/llm-usage?days=3');
      expect(usage).toEqual({
        daily_usage: [
          { date: '2026-11-18', provider: 'gemini', tokens_used: 0, cost: 0 },
          { date: '2026-11-18', provider: 'openai', tokens_used: 0, cost: 0 },
          { date: '2026-11-19', provider: 'gemini', tokens_used: 0, cost: 0 },
          { date: '2026-11-19', provider: 'openai', tokens_used: 150, cost: 0.01 },
          { date: '2026-11-20', provider: 'gemini', tokens_used: 10, cost: 0.1 },
          { date: '2026-11-20', provider: 'openai', tokens_used: 35, cost: 0.005 },
        ],
        totals: { tokens: 195, cost: 0.115, requests: 4 },
        unpriced_requests: 0,
        window: { from: '2026-11-18T00:00:00.000Z', to: '2026-11-21T00:00:00.000Z', timezone: 'UTC' },
      });
      const month = await get<LlmUsage>('/api/metrics/llm-usage');
      expect(month.daily_usage).toHaveLength(60);
      expect(month.totals.requests).toBe(5);
    });

    it.each(['0', '401', 'ten'])('refuses days=%s with 422', async (days) => {
      const admin = await t.loginAdmin();
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/metrics/llm-usage?days=${days}`,
        headers: admin.auth,
      });
      expectError(res, 422, 'validation_failed');
    });
  });

  describe('GET /api/metrics/cache', () => {
    it('is all zeros before the first report', async () => {
      now = NOW;
      expect(await get<CacheMetrics>('/api/metrics/cache')).toEqual({
        hit_rate: 0,
        total_hits: 0,
        cache_entries: 0,
        avg_response_time_cached: 0,
        avg_response_time_uncached: 0,
        last_updated: null,
      });
    });

    it('weighs the reports of the last 24 hours by their hits and misses', async () => {
      now = NOW;
      await report([
        events.cacheStats(NOW - 25 * HOUR, { hits: 1000, misses: 0, entries: 5 }),
        events.cacheStats(NOW - 2 * HOUR, {
          hits: 8,
          misses: 2,
          entries: 100,
          avg_response_time_cached_ms: 5,
          avg_response_time_uncached_ms: 500,
        }),
        events.cacheStats(NOW - 10 * MINUTE, {
          hits: 2,
          misses: 8,
          entries: 120,
          avg_response_time_cached_ms: 10,
          avg_response_time_uncached_ms: 300,
        }),
      ]);
      expect(await get<CacheMetrics>('/api/metrics/cache')).toEqual({
        hit_rate: 0.5,
        total_hits: 10,
        cache_entries: 120,
        avg_response_time_cached: 6, // (5 × 8 + 10 × 2) / 10
        avg_response_time_uncached: 340, // (500 × 2 + 300 × 8) / 10
        last_updated: iso(NOW - 10 * MINUTE),
      });
    });
  });

  describe('GET /api/metrics/market-data', () => {
    it("says 'no data' before the first report", async () => {
      now = NOW;
      expect(await get<MarketDataStatus>('/api/metrics/market-data')).toEqual({
        data_freshness: 'no data',
        websocket_status: 'unknown',
        last_candle_time: null,
        missing_intervals: 0,
      });
    });

    it("is 'current' within 5 minutes of the last candle and stale after", async () => {
      now = NOW;
      await report([
        events.marketData(NOW - MINUTE, { last_candle_time: iso(NOW - 5 * MINUTE), missing_intervals: 2 }),
      ]);
      expect(await get<MarketDataStatus>('/api/metrics/market-data')).toEqual({
        data_freshness: 'current',
        websocket_status: 'connected',
        last_candle_time: iso(NOW - 5 * MINUTE),
        missing_intervals: 2,
      });
      now = NOW + 7 * MINUTE + 30_000;
      expect((await get<MarketDataStatus>('/api/metrics/market-data')).data_freshness).toBe(
        'stale (12 min behind)',
      );

      await report([
        events.marketData(NOW + 7 * MINUTE, {
          websocket_status: 'reconnecting',
          last_candle_time: iso(NOW),
          missing_intervals: 3,
        }),
      ]);
      expect(await get<MarketDataStatus>('/api/metrics/market-data')).toEqual({
        data_freshness: 'stale (7 min behind)',
        websocket_status: 'reconnecting',
        last_candle_time: iso(NOW),
        missing_intervals: 3,
      });
    });
  });

  describe('GET /api/metrics/gemini-usage', () => {
    it('has every hour of the window, zeros included, and sums only Gemini calls', async () => {
      now = NOW;
      await report([
        events.llmCall(NOW - 10 * MINUTE, {
          provider: 'gemini',
          model: 'text-embedding-004',
          input_tokens: 40,
          output_tokens: 0,
          cost_usd: 0.001,
        }),
        events.llmCall(NOW - 2 * HOUR, {
          provider: 'google',
          model: 'Gemini-1.5-Flash',
          input_tokens: 100,
          output_tokens: 20,
          cost_usd: 0.02,
        }),
        events.llmCall(NOW - 2 * HOUR, {
          provider: 'google',
          model: 'Gemini-1.5-Flash',
          input_tokens: 10,
          output_tokens: 0,
          cost_usd: 0.01,
        }),
        events.llmCall(NOW - 3 * HOUR, { provider: 'openai', model: 'gpt-4o' }),
        events.llmCall(NOW - 30 * HOUR, {
          provider: 'GEMINI',
          model: 'gemini-pro-vision',
          input_tokens: 1,
          output_tokens: 1,
          cost_usd: 1,
        }),
      ]);
      const day = await get<GeminiUsage>('/api/metrics/gemini-usage?hours=24&_=1763640000000');
      expect(day.summary).toEqual({
        total_requests: 3,
        total_tokens: 170,
        total_cost: 0.031,
        models: {
          'Gemini-1.5-Flash': { requests: 2, estimated_tokens: 130, estimated_cost: 0.03 },
          'text-embedding-004': { requests: 1, estimated_tokens: 40, estimated_cost: 0.001 },
        },
      });
      expect(day.time_series).toHaveLength(24);
      expect(day.time_series[0]).toEqual({
        timestamp: '2026-11-19T13:00:00.000Z',
        requests: 0,
        tokens: 0,
        cost: 0,
      });
      expect(day.time_series.at(-1)).toEqual({
        timestamp: '2026-11-20T12:00:00.000Z',
        requests: 1,
        tokens: 40,
        cost: 0.001,
      });
      expect(day.time_series.at(-3)).toEqual({
        timestamp: '2026-11-20T10:00:00.000Z',
        requests: 2,
        tokens: 130,
        cost: 0.03,
      });
      expect(day.time_series.filter((p) => p.requests === 0)).toHaveLength(22);
      expect(day.last_updated).toBe(iso(NOW - 10 * MINUTE));

      const twoDays = await get<GeminiUsage>('/api/metrics/gemini-usage?hours=48');
      expect(twoDays.time_series).toHaveLength(48);
      expect(twoDays.summary.total_requests).toBe(4);
      expect(twoDays.summary.models).toHaveProperty('gemini-pro-vision');
      expect((await get<GeminiUsage>('/api/metrics/gemini-usage?hours=168')).time_series).toHaveLength(168);
      expect((await get<GeminiUsage>('/api/metrics/gemini-usage')).time_series).toHaveLength(24);
    });

    it('answers an empty window with zeros and no last_updated', async () => {
      now = NOW;
      const empty = await get<GeminiUsage>('/api/metrics/gemini-usage?hours=48');
      expect(empty.summary).toEqual({ total_requests: 0, total_tokens: 0, total_cost: 0, models: {} });
      expect(empty.time_series.every((p) => p.requests === 0 && p.tokens === 0 && p.cost === 0)).toBe(true);
      expect(empty.last_updated).toBeNull();
    });

    it.each(['12', '25', '0', 'day'])('refuses hours=%s with 422', async (hours) => {
      const admin = await t.loginAdmin();
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/metrics/gemini-usage?hours=${hours}`,
        headers: admin.auth,
      });
      const body = expectError(res, 422, 'validation_failed');
      expect(body.errors).toContainEqual({ path: 'hours', message: 'hours must be 24, 48 or 168' });
    });
  });

  describe('GET /api/metrics/integrations', () => {
    it('is an empty list before the first call', async () => {
      now = NOW;
      expect(await get<IntegrationMetrics>('/api/metrics/integrations')).toEqual({ data: [] });
    });

    it('counts calls per service over 24 hours with the success rate in percent', async () => {
      now = NOW;
      await report([
        events.integrationCall(NOW - 5 * MINUTE, { status: 'error', error: 'timeout' }),
        events.integrationCall(NOW - 20 * HOUR),
        events.integrationCall(NOW - 2 * HOUR),
        events.integrationCall(NOW - 6 * MINUTE),
        events.integrationCall(NOW - 26 * HOUR, { status: 'error' }),
        events.integrationCall(NOW - HOUR, { service_name: 'telegram', status: 'other' }),
      ]);
      expect(await get<IntegrationMetrics>('/api/metrics/integrations')).toEqual({
        data: [
          {
            service_name: 'exchange',
            last_api_call: iso(NOW - 5 * MINUTE),
            last_status: 'error',
            total_calls: 4,
            success_count: 3,
            error_count: 1,
            success_rate: 75,
          },
          {
            service_name: 'telegram',
            last_api_call: iso(NOW - HOUR),
            last_status: 'other',
            total_calls: 1,
            success_count: 0,
            error_count: 0,
            success_rate: 0,
          },
        ],
      });
    });
  });

  it('shows events on the next read once their batch is ingested, though answers are cached', async () => {
    now = NOW;
    const read = async () => ({
      llm: (await get<LlmUsage>('/api/metrics/llm-usage?days=1')).totals.requests,
      gemini: (await get<GeminiUsage>('/api/metrics/gemini-usage?hours=24')).summary.total_requests,
      integrations: (await get<IntegrationMetrics>('/api/metrics/integrations')).data.length,
      cache: (await get<CacheMetrics>('/api/metrics/cache')).total_hits,
      health: (await get<BotHealth>('/api/metrics/bot-health')).error_count_24h,
      market: (await get<MarketDataStatus>('/api/metrics/market-data')).last_candle_time,
    });
    const empty = { llm: 0, gemini: 0, integrations: 0, cache: 0, health: 0, market: null };
    expect(await read()).toEqual(empty);
    // The clock stands still: only the ingestion can make these answers change.
    expect(await read()).toEqual(empty);
    await report([
      events.llmCall(NOW - MINUTE, { provider: 'gemini', model: 'gemini-pro' }),
      events.integrationCall(NOW - MINUTE),
      events.cacheStats(NOW - MINUTE, { hits: 4, misses: 1 }),
      events.error(NOW - MINUTE),
      events.marketData(NOW - MINUTE, { last_candle_time: iso(NOW - MINUTE) }),
    ]);
    expect(await read()).toEqual({
      llm: 1,
      gemini: 1,
      integrations: 1,
      cache: 4,
      health: 1,
      market: iso(NOW - MINUTE),
    });
  });

  it('shows late events for settled hours at once, and keeps the counts as the hours turn', async () => {
    now = NOW;
    const read = async () => ({
      llm: (await get<LlmUsage>('/api/metrics/llm-usage?days=7')).totals.requests,
      gemini: (await get<GeminiUsage>('/api/metrics/gemini-usage?hours=48')).summary.total_requests,
    });
    const gemini = (ts: number, id: string) =>
      events.llmCall(ts, { id, provider: 'gemini', model: 'gemini-pro' });
    await report([gemini(NOW - 10 * HOUR, 'a'), gemini(NOW - MINUTE, 'b')]);
    // Read once: the hours before the previous one are now kept apart from the recent ones.
    expect(await read()).toEqual({ llm: 2, gemini: 2 });
    // A late call for a settled hour, and another for the current hour.
    await report([gemini(NOW - 5 * HOUR, 'late')]);
    expect(await read()).toEqual({ llm: 3, gemini: 3 });
    await report([gemini(NOW, 'now')]);
    expect(await read()).toEqual({ llm: 4, gemini: 4 });
    const hourly = async () =>
      (await get<GeminiUsage>('/api/metrics/gemini-usage?hours=48')).time_series.filter(
        (h) => h.requests > 0,
      );
    const before = await hourly();
    // Three hours on, the current hour of before is settled; a late call for it counts at once too.
    now = NOW + 3 * HOUR;
    expect(await hourly()).toEqual(before);
    await report([gemini(NOW + MINUTE, 'late-again')]);
    expect(await read()).toEqual({ llm: 5, gemini: 5 });
    expect((await hourly()).find((h) => h.timestamp === iso(Math.floor(NOW / HOUR) * HOUR))!.requests).toBe(
      3,
    );
  });

  it('lets every seeded role read metrics, and nobody without a session', async () => {
    const viewer = await t.signInAs(['viewer']);
    for (const url of ['/api/metrics/bot-health', '/api/metrics/cache', '/api/metrics/integrations']) {
      expect((await t.app.inject({ method: 'GET', url, headers: viewer.auth })).statusCode).toBe(200);
      expectError(await t.app.inject({ method: 'GET', url }), 401, 'unauthenticated');
    }
  });
});

describe.each(dialects)('metrics with tuned settings on %s', (dialect) => {
  let now = NOW;
  const t = useTestApp(dialect, {
    app: {
      now: () => now,
      telemetry: { heartbeatStaleSeconds: 600, marketDataFreshSeconds: 60, timezone: 'America/New_York' },
    },
  });
  async function get<T>(url: string): Promise<T> {
    const admin = await t.loginAdmin();
    return (await t.app.inject({ method: 'GET', url, headers: admin.auth })).json<T>();
  }

  it('follows HEARTBEAT_STALE_SECONDS and MARKET_DATA_FRESH_SECONDS', async () => {
    now = NOW;
    await ingest(t.app, await botKey(t), [
      events.heartbeat(NOW - 9 * MINUTE),
      events.marketData(NOW, { last_candle_time: iso(NOW - 61_000) }),
    ]);
    expect((await get<BotHealth>('/api/metrics/bot-health')).telegram_status).toBe('connected');
    expect((await get<MarketDataStatus>('/api/metrics/market-data')).data_freshness).toBe(
      'stale (1 min behind)',
    );
  });

  it('groups LLM usage by days of LUMI_TIMEZONE, across a daylight-saving change', async () => {
    // New York: 8 March 2026 has 23 hours (EST until 07:00Z, EDT after); 9 March starts at 04:00Z.
    now = Date.parse('2026-03-09T15:00:00.000Z');
    await ingest(t.app, await botKey(t), [
      events.llmCall('2026-03-08T04:59:00.000Z', { input_tokens: 1, output_tokens: 0 }), // 7 March, 23:59 EST
      events.llmCall('2026-03-08T05:00:00.000Z', { input_tokens: 10, output_tokens: 0 }), // 8 March, 00:00 EST
      events.llmCall('2026-03-09T03:59:00.000Z', { input_tokens: 100, output_tokens: 0 }), // 8 March, 23:59 EDT
      events.llmCall('2026-03-09T04:00:00.000Z', { input_tokens: 1000, output_tokens: 0 }), // 9 March, 00:00 EDT
    ]);
    const usage = await get<LlmUsage>('/api/metrics/llm-usage?days=3');
    expect(usage.daily_usage.map((d) => [d.date, d.tokens_used])).toEqual([
      ['2026-03-07', 1],
      ['2026-03-08', 110],
      ['2026-03-09', 1000],
    ]);
    // 7 March starts at 05:00Z (EST); 10 March at 04:00Z (EDT).
    expect(usage.window).toEqual({
      from: '2026-03-07T05:00:00.000Z',
      to: '2026-03-10T04:00:00.000Z',
      timezone: 'America/New_York',
    });
  });
});
