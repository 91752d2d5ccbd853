import type { ApiKeyCreated, ApiKeyScope, IngestResult, LimitInput } from '@lumi/contract';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';

/**
 * Builders for the telemetry API tests: a bot's API key and events of each type, complete and valid
 * unless a test overrides a field.
 */

interface Harness {
  app: FastifyInstance;
  loginAdmin(): Promise<{ auth: { authorization: string } }>;
}

export async function botKey(t: Harness, scopes: ApiKeyScope[] = ['ingest:write']) {
  return (await botKeyWithId(t, scopes)).headers;
}

/** A new bot API key's id, and its headers. */
export async function botKeyWithId(t: Harness, scopes: ApiKeyScope[] = ['ingest:write']) {
  const admin = await t.loginAdmin();
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/admin/api-keys',
    headers: admin.auth,
    payload: { name: `bot ${Math.random()}`, scopes },
  });
  expect(res.statusCode, res.body).toBe(201);
  const created = res.json<ApiKeyCreated>();
  return { id: created.id, headers: { authorization: `Bearer ${created.key}` } };
}

/** GETs `url` as the admin, expecting 200, and returns the body. */
export async function adminGet<T>(t: Harness, url: string): Promise<T> {
  const admin = await t.loginAdmin();
  const res = await t.app.inject({ method: 'GET', url, headers: admin.auth });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<T>();
}

/** Ingests `events` with a new bot key, expecting every one accepted. */
export async function reportAll(t: Harness, events: unknown[]): Promise<IngestResult> {
  const result = await ingest(t.app, await botKey(t), events);
  expect(result.rejected).toEqual([]);
  return result;
}

export function ingestRequest(app: FastifyInstance, key: { authorization: string }, events: unknown[]) {
  return app.inject({ method: 'POST', url: '/api/ingest/events', headers: key, payload: { events } });
}

export async function ingest(app: FastifyInstance, key: { authorization: string }, events: unknown[]) {
  const res = await ingestRequest(app, key, events);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<IngestResult>();
}

const at = (ts: number | string) => (typeof ts === 'number' ? new Date(ts).toISOString() : ts);

export const events = {
  llmCall: (ts: number | string, fields: Record<string, unknown> = {}) => ({
    type: 'llm_call',
    ts: at(ts),
    provider: 'openai',
    model: 'gpt-4o',
    input_tokens: 100,
    output_tokens: 50,
    cost_usd: 0.01,
    latency_ms: 800,
    cached: false,
    success: true,
    ...fields,
  }),
  integrationCall: (ts: number | string, fields: Record<string, unknown> = {}) => ({
    type: 'integration_call',
    ts: at(ts),
    service_name: 'exchange',
    status: 'success',
    latency_ms: 120,
    ...fields,
  }),
  cacheStats: (ts: number | string, fields: Record<string, unknown> = {}) => ({
    type: 'cache_stats',
    ts: at(ts),
    hits: 8,
    misses: 2,
    entries: 100,
    avg_response_time_cached_ms: 5,
    avg_response_time_uncached_ms: 500,
    ...fields,
  }),
  heartbeat: (ts: number | string, fields: Record<string, unknown> = {}) => ({
    type: 'heartbeat',
    ts: at(ts),
    telegram_status: 'connected',
    started_at: at(ts),
    active_locks: [],
    ...fields,
  }),
  error: (ts: number | string, fields: Record<string, unknown> = {}) => ({
    type: 'error',
    ts: at(ts),
    source: 'scheduler',
    message: 'Something failed',
    ...fields,
  }),
  marketData: (ts: number | string, fields: Record<string, unknown> = {}) => ({
    type: 'market_data',
    ts: at(ts),
    last_candle_time: at(ts),
    websocket_status: 'connected',
    missing_intervals: 0,
    ...fields,
  }),
};

/** A hard limit of 0.05 USD a day on chat -100: one call of the bot's above costs 0.01 USD. */
export const CHAT_DAY_COST: LimitInput = {
  scope: 'chat',
  subject: '-100',
  metric: 'cost_usd',
  window: 'day',
  amount: 0.05,
  mode: 'hard',
};

export const HOUR = 3600 * 1000;
export const MINUTE = 60 * 1000;
