import { alertConditionSchema, type AlertConditionInput, type AlertEvaluation } from '@lumi/contract';
import { describe, expect, it } from 'vitest';
import type { AlertData, LlmFilter, LlmTotals } from './alert-data.js';
import type { Spender } from '../limits/spend-spikes.js';
import { evaluateCondition } from './conditions.js';

const NOW = Date.parse('2026-11-20T12:30:00.000Z');
const ago = (seconds: number) => new Date(NOW - seconds * 1000).toISOString();

/** What the fake data reader answers; every read of the real one has a field here. */
interface World {
  heartbeat: { ts: string; telegram_status: string } | null;
  market: { ts: string; last_candle_time: string; websocket_status: string } | null;
  /** Errors by source, in any window. */
  errors: Record<string, number>;
  /** LLM sums by "provider/model", in any window. */
  llm: Record<string, LlmTotals>;
  llmToday: Record<string, LlmTotals>;
  budgets: Record<string, number>;
  integrations: Record<string, { total: number; success: number }>;
  cache: { hits: number; misses: number };
  failedDeliveries: number;
  /** Calls that reached each limit (by id), in any window. */
  reached: Record<number, number>;
  spenders: Spender[];
}

const EMPTY: World = {
  heartbeat: null,
  market: null,
  errors: {},
  llm: {},
  llmToday: {},
  budgets: {},
  integrations: {},
  cache: { hits: 0, misses: 0 },
  failedDeliveries: 0,
  reached: {},
  spenders: [],
};

const sum = (byKey: Record<string, LlmTotals>, filter: LlmFilter): LlmTotals => {
  const total = { requests: 0, failed: 0, costUsd: 0, latencyMsTotal: 0 };
  for (const [key, value] of Object.entries(byKey)) {
    const [provider, model] = key.split('/');
    if ((filter.provider ?? provider) !== provider || (filter.model ?? model) !== model) continue;
    total.requests += value.requests;
    total.failed += value.failed;
    total.costUsd += value.costUsd;
    total.latencyMsTotal += value.latencyMsTotal;
  }
  return total;
};

/** A fake AlertData; it records the windows asked for, so a test sees which one a condition reads. */
function fake(world: Partial<World>, windows: number[] = []): AlertData {
  const w = { ...EMPTY, ...world };
  return {
    now: NOW,
    latestHeartbeat: async () => w.heartbeat,
    latestMarketData: async () => w.market,
    errors: async (minutes, source) => {
      windows.push(minutes);
      return Object.entries(w.errors).reduce(
        (n, [s, count]) => (source === null || s === source ? n + count : n),
        0,
      );
    },
    llmWindow: async (minutes, filter) => {
      windows.push(minutes);
      return sum(w.llm, filter);
    },
    llmToday: async (filter) => sum(w.llmToday, filter),
    budgetUsage: async (provider) => w.budgets[provider] ?? null,
    integration: async (minutes, service) => {
      windows.push(minutes);
      return w.integrations[service] ?? { total: 0, success: 0 };
    },
    cache: async (minutes) => {
      windows.push(minutes);
      return w.cache;
    },
    failedDeliveries: async (minutes) => {
      windows.push(minutes);
      return w.failedDeliveries;
    },
    limitReached: async (minutes, limitId) => {
      windows.push(minutes);
      return Object.entries(w.reached).reduce(
        (n, [id, count]) => (limitId === null || Number(id) === limitId ? n + count : n),
        0,
      );
    },
    spenders: async () => w.spenders,
  };
}

const calls = (requests: number, fields: Partial<LlmTotals> = {}): LlmTotals => ({
  requests,
  failed: 0,
  costUsd: 0,
  latencyMsTotal: 0,
  ...fields,
});

interface Case {
  name: string;
  condition: AlertConditionInput;
  world: Partial<World>;
  expected: Partial<AlertEvaluation>;
}

const cases: Case[] = [
  // heartbeat_missing: the age of the latest heartbeat in seconds, holding above the threshold.
  {
    name: 'heartbeat: none ever is no data',
    condition: { type: 'heartbeat_missing', seconds: 60 },
    world: {},
    expected: { value: null, holds: null, threshold: 60, unit: 's', summary: 'No heartbeat received yet' },
  },
  {
    name: 'heartbeat: 340 s old holds',
    condition: { type: 'heartbeat_missing', seconds: 60 },
    world: { heartbeat: { ts: ago(340), telegram_status: 'connected' } },
    expected: { value: 340, holds: true, summary: 'No heartbeat for 340 s (threshold 60 s)' },
  },
  {
    name: 'heartbeat: exactly the threshold does not hold',
    condition: { type: 'heartbeat_missing', seconds: 60 },
    world: { heartbeat: { ts: ago(60), telegram_status: 'connected' } },
    expected: { value: 60, holds: false, summary: 'Last heartbeat 60 s ago (threshold 60 s)' },
  },
  {
    name: 'heartbeat: one a little ahead of the clock is 0 s old',
    condition: { type: 'heartbeat_missing', seconds: 60 },
    world: { heartbeat: { ts: ago(-5), telegram_status: 'connected' } },
    expected: { value: 0, holds: false },
  },
  // telegram_disconnected
  {
    name: 'telegram: no heartbeat is no data',
    condition: { type: 'telegram_disconnected' },
    world: {},
    expected: { value: null, holds: null, unit: 'bool' },
  },
  {
    name: 'telegram: disconnected holds',
    condition: { type: 'telegram_disconnected' },
    world: { heartbeat: { ts: ago(12), telegram_status: 'disconnected' } },
    expected: {
      value: 1,
      threshold: 1,
      holds: true,
      summary: 'Telegram status disconnected (last heartbeat 12 s ago)',
    },
  },
  {
    name: 'telegram: connected does not hold',
    condition: { type: 'telegram_disconnected' },
    world: { heartbeat: { ts: ago(12), telegram_status: 'connected' } },
    expected: { value: 0, holds: false },
  },
  // errors: more than count
  {
    name: 'errors: 12 from scheduler holds above 10',
    condition: { type: 'errors', count: 10, minutes: 5, source: 'scheduler' },
    world: { errors: { scheduler: 12, poster: 50 } },
    expected: {
      value: 12,
      holds: true,
      unit: 'count',
      summary: '12 errors from scheduler in the last 5 min (threshold: more than 10)',
    },
  },
  {
    name: 'errors: exactly the count does not hold',
    condition: { type: 'errors', count: 10, minutes: 5, source: 'scheduler' },
    world: { errors: { scheduler: 10 } },
    expected: { value: 10, holds: false },
  },
  {
    name: 'errors: of all sources',
    condition: { type: 'errors', count: 10, minutes: 5 },
    world: { errors: { scheduler: 6, poster: 5 } },
    expected: { value: 11, holds: true, summary: '11 errors in the last 5 min (threshold: more than 10)' },
  },
  {
    name: 'errors: none is data, 0',
    condition: { type: 'errors', count: 0, minutes: 5 },
    world: {},
    expected: { value: 0, holds: false, summary: '0 errors in the last 5 min (threshold: more than 0)' },
  },
  {
    name: 'errors: one error',
    condition: { type: 'errors', count: 0, minutes: 15 },
    world: { errors: { poster: 1 } },
    expected: { value: 1, holds: true, summary: '1 error in the last 15 min (threshold: more than 0)' },
  },
  // llm_cost: above usd
  {
    name: 'llm cost: the last hour of one provider above $10',
    condition: { type: 'llm_cost', usd: 10, window: 'hour', provider: 'openai' },
    world: {
      llm: {
        'openai/gpt-4o': calls(5, { costUsd: 8.5 }),
        'openai/gpt-4o-mini': calls(5, { costUsd: 3.845 }),
        'gemini/gemini-pro': calls(5, { costUsd: 100 }),
      },
    },
    expected: {
      value: 12.345,
      holds: true,
      unit: 'usd',
      summary: 'LLM spend $12.35 in the last hour for openai (threshold: above $10.00)',
    },
  },
  {
    name: 'llm cost: exactly the threshold does not hold',
    condition: { type: 'llm_cost', usd: 10, window: 'hour', provider: 'openai', model: 'gpt-4o' },
    world: { llm: { 'openai/gpt-4o': calls(5, { costUsd: 10 }) } },
    expected: {
      value: 10,
      holds: false,
      summary: 'LLM spend $10.00 in the last hour for openai/gpt-4o (threshold: above $10.00)',
    },
  },
  {
    name: 'llm cost: today of one model',
    condition: { type: 'llm_cost', usd: 50, window: 'day', model: 'gpt-4o' },
    world: {
      llm: { 'openai/gpt-4o': calls(1, { costUsd: 1 }) },
      llmToday: { 'openai/gpt-4o': calls(1, { costUsd: 60 }), 'azure/gpt-4o': calls(1, { costUsd: 1 }) },
    },
    expected: {
      value: 61,
      holds: true,
      summary: 'LLM spend $61.00 today for model gpt-4o (threshold: above $50.00)',
    },
  },
  {
    name: 'llm cost: no calls is $0',
    condition: { type: 'llm_cost', usd: 1, window: 'day' },
    world: {},
    expected: { value: 0, holds: false, summary: 'LLM spend $0.00 today (threshold: above $1.00)' },
  },
  // llm_failure_rate: above percent, once min_calls
  {
    name: 'llm failures: fewer calls than min_calls is no data',
    condition: { type: 'llm_failure_rate', percent: 5, minutes: 15, min_calls: 20 },
    world: { llm: { 'openai/gpt-4o': calls(19, { failed: 19 }) } },
    expected: {
      value: null,
      holds: null,
      unit: 'percent',
      summary: 'Only 19 LLM calls in the last 15 min, fewer than the 20 needed',
    },
  },
  {
    name: 'llm failures: no calls is no data',
    condition: { type: 'llm_failure_rate', percent: 5, minutes: 15, min_calls: 1, provider: 'openai' },
    world: {},
    expected: { value: null, holds: null, summary: 'No LLM calls for openai in the last 15 min' },
  },
  {
    name: 'llm failures: 10 of 250 is 4\u00a0%, above 2\u00a0%',
    condition: { type: 'llm_failure_rate', percent: 2, minutes: 15, min_calls: 20, provider: 'openai' },
    world: { llm: { 'openai/gpt-4o': calls(250, { failed: 10 }) } },
    expected: {
      value: 4,
      holds: true,
      summary: '4\u00a0% of 250 LLM calls for openai failed in the last 15 min (threshold: above 2\u00a0%)',
    },
  },
  {
    name: 'llm failures: exactly the percent does not hold',
    condition: { type: 'llm_failure_rate', percent: 4, minutes: 15, min_calls: 20 },
    world: { llm: { 'openai/gpt-4o': calls(250, { failed: 10 }) } },
    expected: { value: 4, holds: false },
  },
  // llm_latency: average above ms
  {
    name: 'llm latency: no calls is no data',
    condition: { type: 'llm_latency', ms: 1000, minutes: 10, model: 'gpt-4o' },
    world: { llm: { 'openai/gpt-4o-mini': calls(3, { latencyMsTotal: 30_000 }) } },
    expected: {
      value: null,
      holds: null,
      unit: 'ms',
      summary: 'No LLM calls for model gpt-4o in the last 10 min',
    },
  },
  {
    name: 'llm latency: 1,234.5 ms average holds above 1,000',
    condition: { type: 'llm_latency', ms: 1000, minutes: 10 },
    world: { llm: { 'openai/gpt-4o': calls(2, { latencyMsTotal: 2469 }) } },
    expected: {
      value: 1234.5,
      holds: true,
      summary: 'Average LLM latency 1,235 ms over 2 calls in the last 10 min (threshold: above 1,000 ms)',
    },
  },
  {
    name: 'llm latency: exactly the threshold does not hold',
    condition: { type: 'llm_latency', ms: 1000, minutes: 10 },
    world: { llm: { 'openai/gpt-4o': calls(1, { latencyMsTotal: 1000 }) } },
    expected: { value: 1000, holds: false },
  },
  // budget_usage: at or above percent
  {
    name: 'budget: no active budget with a limit is no data',
    condition: { type: 'budget_usage', provider: 'openai', percent: 80 },
    world: { budgets: { gemini: 95 } },
    expected: {
      value: null,
      holds: null,
      summary: 'No active budget with a daily limit for openai',
    },
  },
  {
    name: 'budget: exactly 80\u00a0% holds at 80\u00a0%',
    condition: { type: 'budget_usage', provider: 'openai', percent: 80 },
    world: { budgets: { openai: 80 } },
    expected: {
      value: 80,
      holds: true,
      unit: 'percent',
      summary: 'Budget of openai at 80\u00a0% today (threshold: 80\u00a0%)',
    },
  },
  {
    name: 'budget: 79.99\u00a0% does not hold at 80\u00a0%',
    condition: { type: 'budget_usage', provider: 'openai', percent: 80 },
    world: { budgets: { openai: 79.99 } },
    expected: {
      value: 79.99,
      holds: false,
      summary: 'Budget of openai at 80\u00a0% today (threshold: 80\u00a0%)',
    },
  },
  // integration_success_rate: below percent, once min_calls
  {
    name: 'integration: fewer calls than min_calls is no data',
    condition: {
      type: 'integration_success_rate',
      service: 'exchange',
      percent: 95,
      minutes: 15,
      min_calls: 10,
    },
    world: { integrations: { exchange: { total: 3, success: 0 } } },
    expected: {
      value: null,
      holds: null,
      summary: 'Only 3 calls to exchange in the last 15 min, fewer than the 10 needed',
    },
  },
  {
    name: 'integration: no calls is no data',
    condition: {
      type: 'integration_success_rate',
      service: 'exchange',
      percent: 95,
      minutes: 5,
      min_calls: 1,
    },
    world: {},
    expected: { value: null, holds: null, summary: 'No calls to exchange in the last 5 min' },
  },
  {
    name: 'integration: 37 of 40 is 92.5\u00a0%, below 95\u00a0%',
    condition: {
      type: 'integration_success_rate',
      service: 'exchange',
      percent: 95,
      minutes: 15,
      min_calls: 10,
    },
    world: { integrations: { exchange: { total: 40, success: 37 }, other: { total: 100, success: 100 } } },
    expected: {
      value: 92.5,
      holds: true,
      summary:
        '92.5\u00a0% of 40 calls to exchange succeeded in the last 15 min (threshold: below 95\u00a0%)',
    },
  },
  {
    name: 'integration: exactly the percent does not hold',
    condition: {
      type: 'integration_success_rate',
      service: 'exchange',
      percent: 92.5,
      minutes: 15,
      min_calls: 10,
    },
    world: { integrations: { exchange: { total: 40, success: 37 } } },
    expected: { value: 92.5, holds: false },
  },
  // market_data_stale: candle older than minutes, or websocket not connected
  {
    name: 'market data: no report is no data',
    condition: { type: 'market_data_stale', minutes: 5 },
    world: {},
    expected: { value: null, holds: null, unit: 'min', summary: 'No market data report received yet' },
  },
  {
    name: 'market data: a 14 min old candle and a disconnected websocket hold',
    condition: { type: 'market_data_stale', minutes: 5 },
    world: { market: { ts: ago(10), last_candle_time: ago(14 * 60), websocket_status: 'disconnected' } },
    expected: {
      value: 14,
      holds: true,
      summary:
        'Market data: last candle 14 min old, websocket disconnected (threshold: older than 5 min or websocket not connected)',
    },
  },
  {
    name: 'market data: a fresh candle with the websocket down holds',
    condition: { type: 'market_data_stale', minutes: 5 },
    world: { market: { ts: ago(10), last_candle_time: ago(60), websocket_status: 'reconnecting' } },
    expected: { value: 1, holds: true },
  },
  {
    name: 'market data: the websocket is not watched without the flag',
    condition: { type: 'market_data_stale', minutes: 5, websocket: false },
    world: { market: { ts: ago(10), last_candle_time: ago(5 * 60), websocket_status: 'disconnected' } },
    expected: {
      value: 5,
      holds: false,
      summary: 'Market data: last candle 5 min old, websocket disconnected (threshold: older than 5 min)',
    },
  },
  {
    name: 'market data: a candle just past the threshold holds',
    condition: { type: 'market_data_stale', minutes: 5, websocket: false },
    world: { market: { ts: ago(10), last_candle_time: ago(5 * 60 + 6), websocket_status: 'connected' } },
    expected: { value: 5.1, holds: true },
  },
  // cache_hit_rate: below percent, once min_lookups
  {
    name: 'cache: no lookups is no data',
    condition: { type: 'cache_hit_rate', percent: 80, minutes: 15 },
    world: {},
    expected: { value: null, holds: null, summary: 'No cache lookups in the last 15 min' },
  },
  {
    name: 'cache: fewer lookups than min_lookups is no data',
    condition: { type: 'cache_hit_rate', percent: 80, minutes: 15, min_lookups: 100 },
    world: { cache: { hits: 10, misses: 40 } },
    expected: {
      value: null,
      holds: null,
      summary: 'Only 50 cache lookups in the last 15 min, fewer than the 100 needed',
    },
  },
  {
    name: 'cache: 42\u00a0% holds below 80\u00a0%',
    condition: { type: 'cache_hit_rate', percent: 80, minutes: 15 },
    world: { cache: { hits: 420, misses: 580 } },
    expected: {
      value: 42,
      holds: true,
      summary: 'Cache hit rate 42\u00a0% of 1,000 lookups in the last 15 min (threshold: below 80\u00a0%)',
    },
  },
  {
    name: 'cache: exactly the percent does not hold',
    condition: { type: 'cache_hit_rate', percent: 80, minutes: 15 },
    world: { cache: { hits: 8, misses: 2 } },
    expected: { value: 80, holds: false },
  },
  // delivery_failures: more than count
  {
    name: 'deliveries: 3 failed holds above 2',
    condition: { type: 'delivery_failures', count: 2, minutes: 30 },
    world: { failedDeliveries: 3 },
    expected: {
      value: 3,
      holds: true,
      unit: 'count',
      summary: '3 deliveries failed or refused in the last 30 min (threshold: more than 2)',
    },
  },
  {
    name: 'deliveries: exactly the count does not hold',
    condition: { type: 'delivery_failures', count: 1, minutes: 30 },
    world: { failedDeliveries: 1 },
    expected: {
      value: 1,
      holds: false,
      summary: '1 delivery failed or refused in the last 30 min (threshold: more than 1)',
    },
  },
  {
    name: 'deliveries: none is data, 0',
    condition: { type: 'delivery_failures', count: 0, minutes: 30 },
    world: {},
    expected: { value: 0, holds: false },
  },
  // limit_reached: any call reached the limit (or any limit)
  {
    name: 'limit reached: a call of limit 3 holds for limit 3 and for any',
    condition: { type: 'limit_reached', minutes: 15, limit_id: 3 },
    world: { reached: { 3: 2, 4: 5 } },
    expected: {
      value: 2,
      threshold: 0,
      holds: true,
      unit: 'count',
      summary: '2 calls reached limit 3 in the last 15 min',
    },
  },
  {
    name: 'limit reached: every limit when none is named',
    condition: { type: 'limit_reached', minutes: 15 },
    world: { reached: { 3: 2, 4: 5 } },
    expected: { value: 7, holds: true, summary: '7 calls reached a limit in the last 15 min' },
  },
  {
    name: 'limit reached: none does not hold',
    condition: { type: 'limit_reached', minutes: 15, limit_id: 9 },
    world: { reached: { 3: 2 } },
    expected: { value: 0, holds: false },
  },
  // spend_spike: the spender furthest above its usual, over the floor
  {
    name: 'spend spike: 20 times its usual holds at factor 10',
    condition: { type: 'spend_spike', factor: 10, usd: 5 },
    world: {
      spenders: [
        { kind: 'chat', subject: '-100', spent: 50, usual: 40 },
        { kind: 'user', subject: '7', spent: 20, usual: 1 },
      ],
    },
    expected: {
      value: 20,
      threshold: 10,
      unit: 'usd',
      holds: true,
      summary:
        'User 7 spent $20.00 in the last two hours; its usual is $1.00 (threshold: 10 times its usual, at least $5.00)',
    },
  },
  {
    name: 'spend spike: a new spender over the floor holds, one under it is not looked at',
    condition: { type: 'spend_spike', factor: 10, usd: 5 },
    world: {
      spenders: [
        { kind: 'chat', subject: '-1', spent: 6, usual: 0 },
        { kind: 'chat', subject: '-2', spent: 4, usual: 0.01 },
      ],
    },
    expected: { value: 6, threshold: 5, holds: true },
  },
  {
    name: 'spend spike: twice the usual does not hold at factor 10',
    condition: { type: 'spend_spike', factor: 10, usd: 5 },
    world: { spenders: [{ kind: 'chat', subject: '-1', spent: 60, usual: 30 }] },
    expected: { value: 60, threshold: 300, holds: false },
  },
  {
    name: 'spend spike: nobody over the floor does not hold',
    condition: { type: 'spend_spike', factor: 10, usd: 5 },
    world: { spenders: [{ kind: 'chat', subject: '-1', spent: 1, usual: 0 }] },
    expected: { value: 0, threshold: 5, holds: false },
  },
];

describe('alert conditions', () => {
  it.each(cases)('$name', async ({ condition, world, expected }) => {
    const evaluation = await evaluateCondition(alertConditionSchema.parse(condition), fake(world));
    expect(evaluation).toMatchObject(expected);
  });

  it('covers every condition type with holding, not holding and (where it can have none) no data', () => {
    const types = new Set(cases.map((c) => c.condition.type));
    expect([...types].sort()).toEqual(alertConditionSchema.options.map((o) => o.shape.type.value).sort());
  });

  it.each([
    [{ type: 'errors', count: 1, minutes: 7 }, 7],
    [{ type: 'llm_cost', usd: 1, window: 'hour' }, 60],
    [{ type: 'llm_failure_rate', percent: 1, minutes: 20, min_calls: 1 }, 20],
    [{ type: 'llm_latency', ms: 1, minutes: 1440 }, 1440],
    [{ type: 'integration_success_rate', service: 'x', percent: 1, minutes: 3, min_calls: 1 }, 3],
    [{ type: 'cache_hit_rate', percent: 1, minutes: 45 }, 45],
    [{ type: 'delivery_failures', count: 1, minutes: 90 }, 90],
  ] as const)('reads the window of %j: %i minutes', async (condition, minutes) => {
    const windows: number[] = [];
    await evaluateCondition(alertConditionSchema.parse(condition), fake({}, windows));
    expect(windows).toEqual([minutes]);
  });
});
