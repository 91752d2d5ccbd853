import {
  alertConditionSchema,
  type AlertConditionInput,
  type DeliveryStatus,
  type TokenBudget,
} from '@lumi/contract';
import { describe, expect, it, vi } from 'vitest';
import { createAlertData, type AlertSources } from '../src/modules/alerts/alert-data.js';
import { evaluateCondition } from '../src/modules/alerts/conditions.js';
import { dialects, useTestApp } from './helper.js';
import { botKey, events, HOUR, ingest, MINUTE } from './telemetry-helper.js';

/** 21:30:30 in Tokyo: "today" there began at 2026-11-19T15:00Z. */
const NOW = Date.parse('2026-11-20T12:30:30.000Z');
const TIMEZONE = 'Asia/Tokyo';
const ALL = { provider: null, model: null };

describe.each(dialects)('alert data on %s', (dialect) => {
  let now = NOW;
  const t = useTestApp(dialect, { app: { now: () => now, telemetry: { timezone: TIMEZONE } } });
  /** What the alert services read through: the metrics' reads, the budgets, the deliveries. */
  const sources = (): AlertSources => ({
    metrics: t.app.services.metricsReads,
    budgets: t.app.services.budgets,
    deliveries: t.app.services.messaging.deliveries,
    limits: t.app.services.limits,
  });
  const data = () => createAlertData(sources(), NOW, { timezone: TIMEZONE });

  it('reads the latest heartbeat and market report by event time, and null before any', async () => {
    now = NOW;
    expect(await data().latestHeartbeat()).toBeNull();
    expect(await data().latestMarketData()).toBeNull();
    const key = await botKey(t);
    await ingest(t.app, key, [
      events.heartbeat(NOW - MINUTE, { telegram_status: 'disconnected' }),
      events.heartbeat(NOW - 5 * MINUTE),
      events.marketData(NOW - 2 * MINUTE, { last_candle_time: new Date(NOW - 9 * MINUTE).toISOString() }),
    ]);
    // A late report of an earlier time does not hide the newer one.
    await ingest(t.app, key, [events.marketData(NOW - 30 * MINUTE, { websocket_status: 'disconnected' })]);
    expect(await data().latestHeartbeat()).toEqual({
      ts: new Date(NOW - MINUTE).toISOString(),
      telegram_status: 'disconnected',
    });
    expect(await data().latestMarketData()).toEqual({
      ts: new Date(NOW - 2 * MINUTE).toISOString(),
      last_candle_time: new Date(NOW - 9 * MINUTE).toISOString(),
      websocket_status: 'connected',
    });
  });

  it('sums the minute rollups from the minute holding now − M through the current one', async () => {
    now = NOW;
    const key = await botKey(t);
    const at = (iso: string) => Date.parse(`2026-11-20T${iso}Z`);
    await ingest(t.app, key, [
      // Window of 5 minutes at 12:30:30: buckets 12:25 to 12:30.
      events.error(at('12:24:59.999'), { source: 'scheduler' }),
      events.error(at('12:25:00.000'), { source: 'scheduler' }),
      events.error(at('12:30:10.000'), { source: 'scheduler' }),
      events.error(at('12:28:00.000'), { source: 'poster' }),
      events.llmCall(at('12:29:00.000'), {
        provider: 'openai',
        model: 'gpt-4o',
        cost_usd: 0.5,
        latency_ms: 100,
      }),
      events.llmCall(at('12:29:30.000'), {
        provider: 'openai',
        model: 'gpt-4o-mini',
        cost_usd: 0.25,
        latency_ms: 300,
        success: false,
      }),
      events.llmCall(at('12:00:00.000'), {
        provider: 'gemini',
        model: 'gemini-pro',
        cost_usd: 2,
        latency_ms: 900,
      }),
      events.integrationCall(at('12:27:00.000'), { service_name: 'exchange' }),
      events.integrationCall(at('12:27:01.000'), { service_name: 'exchange', status: 'error' }),
      events.integrationCall(at('12:27:02.000'), { service_name: 'weather' }),
      events.cacheStats(at('12:26:00.000'), { hits: 30, misses: 10 }),
      events.cacheStats(at('11:00:00.000'), { hits: 1, misses: 99 }),
    ]);
    const d = data();
    expect(await d.errors(5, null)).toBe(3);
    expect(await d.errors(5, 'scheduler')).toBe(2);
    expect(await d.errors(6, 'scheduler')).toBe(3);
    expect(await d.errors(1, null)).toBe(1);
    expect(await d.errors(5, 'nobody')).toBe(0);

    expect(await d.llmWindow(5, ALL)).toEqual({ requests: 2, failed: 1, costUsd: 0.75, latencyMsTotal: 400 });
    expect(await d.llmWindow(5, { provider: 'openai', model: 'gpt-4o-mini' })).toEqual({
      requests: 1,
      failed: 1,
      costUsd: 0.25,
      latencyMsTotal: 300,
    });
    expect((await d.llmWindow(60, { provider: 'gemini', model: null })).requests).toBe(1);
    expect((await d.llmWindow(60, { provider: null, model: 'gpt-4o' })).requests).toBe(1);
    // 12:00:30 falls in the 12:00 bucket: the gemini call of 12:00:00 counts in a window of 30, not 29.
    expect((await d.llmWindow(29, ALL)).requests).toBe(2);
    expect((await d.llmWindow(30, ALL)).requests).toBe(3);

    expect(await d.integration(5, 'exchange')).toEqual({ total: 2, success: 1 });
    expect(await d.integration(5, 'nothing')).toEqual({ total: 0, success: 0 });
    expect(await d.cache(5)).toEqual({ hits: 30, misses: 10 });
    expect(await d.cache(120)).toEqual({ hits: 31, misses: 109 });
  });

  it("sums today's LLM usage and budget usage by the day in LUMI_TIMEZONE, as the budgets list does", async () => {
    now = NOW;
    const admin = await t.loginAdmin();
    const budget = (provider: string, payload: object) =>
      t.app.inject({
        method: 'POST',
        url: `/api/config/token-budgets/${provider}`,
        headers: admin.auth,
        payload,
      });
    expect((await budget('openai', { daily_token_limit: 1000, daily_cost_limit: 10 })).statusCode).toBe(201);
    expect((await budget('gemini', { daily_token_limit: 1000, is_active: false })).statusCode).toBe(201);
    const key = await botKey(t);
    const yesterdayInTokyo = Date.parse('2026-11-19T14:59:00.000Z');
    await ingest(t.app, key, [
      events.llmCall(yesterdayInTokyo, {
        provider: 'openai',
        input_tokens: 500,
        output_tokens: 0,
        cost_usd: 5,
      }),
      events.llmCall(NOW - 20 * HOUR, {
        provider: 'openai',
        input_tokens: 300,
        output_tokens: 100,
        cost_usd: 1,
      }),
      events.llmCall(NOW - HOUR, {
        provider: 'openai',
        model: 'o3',
        input_tokens: 100,
        output_tokens: 50,
        cost_usd: 2,
      }),
      events.llmCall(NOW - HOUR, { provider: 'gemini', input_tokens: 900, output_tokens: 0, cost_usd: 0 }),
    ]);
    const d = data();
    expect(await d.llmToday(ALL)).toEqual({ requests: 3, failed: 0, costUsd: 3, latencyMsTotal: 2400 });
    expect((await d.llmToday({ provider: 'openai', model: 'o3' })).costUsd).toBe(2);

    // 550 of 1,000 tokens (55 %) against $3 of $10 (30 %): the higher, as the budgets list says.
    const listed = (
      await t.app.inject({ method: 'GET', url: '/api/config/token-budgets', headers: admin.auth })
    ).json<TokenBudget[]>();
    expect(listed.find((b) => b.provider === 'openai')?.current_usage.usage_percentage).toBe(55);
    expect(await d.budgetUsage('openai')).toBe(55);
    // An inactive budget and no budget measure nothing.
    expect(await d.budgetUsage('gemini')).toBeNull();
    expect(await d.budgetUsage('mistral')).toBeNull();
  });

  it('counts the deliveries that failed or were refused in the last minutes', async () => {
    now = NOW;
    const delivery = (status: DeliveryStatus, updatedAgo: number) => ({
      status,
      source: 'user' as const,
      requester_key: 'user:1',
      requested_by: 'admin',
      template_id: 1,
      template_name: 'alert',
      template_version: 1,
      schedule_id: null,
      schedule_run_at: null,
      channel_id: 1,
      channel_name: 'ops',
      chat_id: '-100123',
      topic_id: null,
      message_thread_id: null,
      text: 'x',
      parse_mode: 'HTML' as const,
      disable_web_preview: 0,
      disable_notification: 0,
      pin: 0,
      data: '{}',
      idempotency_key: null,
      idempotency_expires_at: null,
      send_at: new Date(NOW - HOUR).toISOString(),
      next_attempt_at: null,
      lease_owner: null,
      lease_expires_at: null,
      telegram_message_id: null,
      error: status === 'failed' ? 'Forbidden: bot was blocked by the user' : null,
      created_at: new Date(NOW - HOUR).toISOString(),
      updated_at: new Date(NOW - updatedAgo).toISOString(),
      sent_at: null,
    });
    await t.app.db
      .insertInto('deliveries')
      .values([
        delivery('failed', MINUTE),
        delivery('failed', 9 * MINUTE + 59_000),
        delivery('failed', 10 * MINUTE),
        delivery('refused', 2 * MINUTE),
        delivery('sent', MINUTE),
        delivery('queued', MINUTE),
        delivery('cancelled', MINUTE),
      ])
      .execute();
    expect(await data().failedDeliveries(10)).toBe(3);
    expect(await data().failedDeliveries(11)).toBe(4);
  });

  it('answers many rules of every type with a query per distinct table and window', async () => {
    now = NOW;
    const key = await botKey(t);
    await ingest(t.app, key, [
      events.heartbeat(NOW - 30_000),
      events.error(NOW - MINUTE),
      events.llmCall(NOW),
    ]);
    const conditions: AlertConditionInput[] = [];
    for (let i = 0; i < 20; i += 1) {
      const minutes = i % 2 === 0 ? 5 : 15;
      conditions.push(
        { type: 'heartbeat_missing', seconds: 60 + i },
        { type: 'telegram_disconnected' },
        { type: 'errors', count: i, minutes, source: i % 3 === 0 ? 'scheduler' : null },
        { type: 'llm_cost', usd: 1 + i, window: i % 2 === 0 ? 'hour' : 'day', provider: 'openai' },
        { type: 'llm_failure_rate', percent: 5, minutes, min_calls: 1 },
        { type: 'llm_latency', ms: 500 + i, minutes },
        { type: 'budget_usage', provider: 'openai', percent: 80 },
        { type: 'integration_success_rate', service: `s${i}`, percent: 95, minutes, min_calls: 1 },
        { type: 'market_data_stale', minutes: 5 },
        { type: 'delivery_failures', count: 0, minutes },
      );
    }
    // Every statement the services run goes through the database's one executor: count them there.
    const executed = vi.spyOn(t.app.db.getExecutor(), 'executeQuery');
    const d = createAlertData(sources(), NOW, { timezone: TIMEZONE });
    const evaluations = await Promise.all(
      conditions.map((c) => evaluateCondition(alertConditionSchema.parse(c), d)),
    );
    const queries = executed.mock.calls.length;
    executed.mockRestore();
    expect(evaluations).toHaveLength(200);
    expect(evaluations[0]).toMatchObject({ value: 30, holds: false });
    expect(evaluations[2]).toMatchObject({
      value: 1,
      holds: true,
      summary: '1 error from scheduler in the last 5 min (threshold: more than 0)',
    });
    // heartbeat, market data, budgets, today's usage; errors, LLM, integrations and deliveries per window
    // (5, 15 and the cost rules' 60).
    expect(queries).toBe(4 + 2 + 3 + 2 + 2);
  });
});
