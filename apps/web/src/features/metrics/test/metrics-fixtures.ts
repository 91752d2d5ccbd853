import type {
  BotHealth,
  CacheMetrics,
  ChangeMarkers,
  GeminiUsage,
  IntegrationMetrics,
  LlmErrors,
  LlmFeatureUsage,
  LlmLatency,
  LlmTopChats,
  LlmTopUsers,
  LlmUsage,
  MarketDataStatus,
  ModelPrice,
  SessionUser,
  TokenBudget,
} from '@lumi/contract';
import { vi } from 'vitest';
import { useAuthStore } from '@/lib/auth-store';
import { fakeApi, type FakeRoute } from '@/test/fake-api';
import { jsonResponse } from '@/test/render-with-providers';

/** Answers of every metrics endpoint, as a healthy system would give them. */
export const answers = {
  '/api/metrics/bot-health': {
    telegram_status: 'connected',
    uptime_seconds: 7 * 3600 + 59 * 60,
    error_count_24h: 3,
    active_locks: [{ name: 'daily-digest', holder: 'worker-1', since: '2025-06-01T10:00:00Z' }],
  } satisfies BotHealth,
  '/api/metrics/market-data': {
    data_freshness: 'current',
    websocket_status: 'connected',
    last_candle_time: '2025-06-01T10:00:00Z',
    missing_intervals: 2,
  } satisfies MarketDataStatus,
  '/api/metrics/cache': {
    hit_rate: 0.9,
    total_hits: 900,
    cache_entries: 120,
    avg_response_time_cached: 20,
    avg_response_time_uncached: 200,
    last_updated: '2025-06-01T10:00:00Z',
  } satisfies CacheMetrics,
  '/api/metrics/integrations': {
    data: [
      {
        service_name: 'binance',
        last_api_call: '2025-06-01T10:00:00Z',
        last_status: 'error',
        total_calls: 4,
        success_count: 3,
        error_count: 1,
        success_rate: 75,
      },
      {
        service_name: 'coingecko',
        last_api_call: '2025-06-01T10:00:00Z',
        last_status: 'success',
        total_calls: 200,
        success_count: 200,
        error_count: 0,
        success_rate: 100,
      },
    ],
  } satisfies IntegrationMetrics,
  '/api/metrics/llm-usage': {
    daily_usage: [
      { date: '2025-05-31', provider: 'gemini', tokens_used: 1000, cost: 0.01 },
      { date: '2025-06-01', provider: 'gemini', tokens_used: 1500, cost: 0.02 },
    ],
    totals: { tokens: 2500, cost: 0.03, requests: 4 },
    unpriced_requests: 0,
    window: { from: '2025-05-26T00:00:00.000Z', to: '2025-06-02T00:00:00.000Z', timezone: 'UTC' },
  } satisfies LlmUsage,
  '/api/metrics/gemini-usage': {
    summary: {
      total_requests: 5,
      total_tokens: 2500,
      total_cost: 0.03,
      models: {
        'gemini-1.5-pro': { requests: 3, estimated_tokens: 2000, estimated_cost: 0.02 },
        'gemini-pro-vision': { requests: 2, estimated_tokens: 500, estimated_cost: 0.01 },
      },
    },
    time_series: [
      { timestamp: '2025-06-01T09:00:00.000Z', requests: 2, tokens: 1000, cost: 0.01 },
      { timestamp: '2025-06-01T10:00:00.000Z', requests: 3, tokens: 1500, cost: 0.02 },
    ],
    last_updated: '2025-06-01T10:30:00Z',
  } satisfies GeminiUsage,
  '/api/metrics/llm/latency': {
    from: '2025-06-01T09:00:00.000Z',
    to: '2025-06-01T11:00:00.000Z',
    interval: 'hour',
    models: [
      {
        provider: 'gemini',
        model: 'gemini-1.5-pro',
        total: { requests: 3, p50_ms: 800, p95_ms: 1450, p99_ms: 1500 },
        intervals: [
          { start: '2025-06-01T09:00:00.000Z', requests: 2, p50_ms: 700, p95_ms: 900, p99_ms: 900 },
          { start: '2025-06-01T10:00:00.000Z', requests: 1, p50_ms: 1500, p95_ms: 1500, p99_ms: 1500 },
        ],
      },
    ],
  } satisfies LlmLatency,
  '/api/metrics/llm/errors': {
    from: '2025-06-01T09:00:00.000Z',
    to: '2025-06-01T11:00:00.000Z',
    models: [
      { provider: 'gemini', model: 'gemini-1.5-pro', requests: 4, failed_requests: 1, error_rate: 25 },
    ],
    error_types: [{ error_type: 'rate_limited', errors: 1, error_rate: 0.5 }],
    breakdown: [{ provider: 'gemini', model: 'gemini-1.5-pro', error_type: 'rate_limited', errors: 1 }],
  } satisfies LlmErrors,
  '/api/metrics/llm/features': {
    from: '2025-06-01T09:00:00.000Z',
    to: '2025-06-01T11:00:00.000Z',
    features: [
      {
        feature: 'digest',
        requests: 3,
        failed_requests: 0,
        input_tokens: 3000,
        output_tokens: 600,
        cost_usd: 0.03,
        models: [],
      },
      {
        feature: null,
        requests: 1,
        failed_requests: 1,
        input_tokens: 100,
        output_tokens: 0,
        cost_usd: 0.01,
        models: [],
      },
    ],
  } satisfies LlmFeatureUsage,
  '/api/metrics/llm/top-chats': {
    from_day: '2025-06-01',
    to_day: '2025-06-01',
    chats: [{ chat_id: '-1001234567890123', requests: 3, tokens: 3600, cost_usd: 0.03 }],
    other: { requests: 1, tokens: 100, cost_usd: 0.01 },
    total: { requests: 4, tokens: 3700, cost_usd: 0.04 },
  } satisfies LlmTopChats,
  '/api/metrics/llm/top-users': {
    from_day: '2025-06-01',
    to_day: '2025-06-01',
    users: [{ user_id: '987654321', requests: 4, tokens: 3700, cost_usd: 0.04 }],
    other: { requests: 0, tokens: 0, cost_usd: 0 },
    total: { requests: 4, tokens: 3700, cost_usd: 0.04 },
  } satisfies LlmTopUsers,
  '/api/metrics/changes': {
    from: '2025-06-01T09:00:00.000Z',
    to: '2025-06-01T11:00:00.000Z',
    changes: [
      {
        id: 41,
        at: '2025-06-01T10:15:00.000Z',
        user: 'admin',
        action: 'config.updated',
        resource_type: 'config_item',
        resource_name: 'Lumi',
        summary: "Updated personalities item 'Lumi' (content)",
        version: 3,
        link: '/config?tab=personalities&q=Lumi',
      },
    ],
    truncated: false,
  } satisfies ChangeMarkers,
  '/api/config/token-budgets': [
    {
      provider: 'gemini',
      daily_token_limit: 100_000,
      daily_cost_limit: null,
      current_usage: { tokens_used: 85_000, cost_incurred: 0.5, usage_percentage: 85 },
      is_active: true,
      updated_at: '2025-06-01T10:00:00Z',
      updated_by: 'admin',
    },
    {
      provider: 'openai',
      daily_token_limit: null,
      daily_cost_limit: 1,
      current_usage: { tokens_used: 9_000, cost_incurred: 1.5, usage_percentage: 150 },
      is_active: false,
      updated_at: '2025-06-01T10:00:00Z',
      updated_by: 'admin',
    },
  ] satisfies TokenBudget[],
  '/api/config/model-prices': [
    {
      model: 'gemini-1.5-pro',
      input_usd_per_million: 1.25,
      output_usd_per_million: 5,
      source: 'operator',
      catalogue: null,
      cache_read_usd_per_million: null,
      unpriced_requests: 0,
      updated_at: '2025-06-01T10:00:00Z',
      updated_by: 'admin',
    },
    {
      model: 'gpt-4o-mini',
      input_usd_per_million: 0.15,
      output_usd_per_million: 0.6,
      source: 'catalogue',
      catalogue: { name: 'genai-prices 0.1.8', model: 'gpt-4o-mini' },
      cache_read_usd_per_million: 0.075,
      unpriced_requests: 0,
      updated_at: null,
      updated_by: null,
    },
    {
      model: 'in-house-llm',
      input_usd_per_million: 0,
      output_usd_per_million: 0,
      source: 'none',
      catalogue: null,
      cache_read_usd_per_million: null,
      unpriced_requests: 3,
      updated_at: null,
      updated_by: null,
    },
  ] satisfies ModelPrice[],
};

export type MetricsPath = keyof typeof answers;

const metricsPaths = Object.keys(answers) as MetricsPath[];

/**
 * Serves `answers` on the fake API; an override replaces one path's answer (a Response such as a 404,
 * or a promise that never settles to keep a panel loading).
 */
export function serveMetrics(overrides: Partial<Record<MetricsPath, FakeRoute>> = {}) {
  return fakeApi(
    Object.fromEntries(
      metricsPaths.map((path) => [`GET ${path}`, overrides[path] ?? jsonResponse(answers[path])]),
    ),
  );
}

/** Gives every metrics endpoint the same answer. */
export function serveEveryMetric(answer: FakeRoute) {
  return fakeApi(Object.fromEntries(metricsPaths.map((path) => [`GET ${path}`, answer])));
}

export const failWith = (status: number) => jsonResponse({ detail: 'Something went wrong' }, status);

export function signInAs(permissions: string[]) {
  const user: SessionUser = {
    id: 1,
    username: 'ops',
    email: 'ops@example.com',
    name: 'Ops',
    role: 'operator',
    roles: [{ id: 2, name: 'operator', permissions }],
    pending_action: null,
  };
  useAuthStore.setState({ user, accessToken: 'token', isAuthenticated: true, isLoading: false });
}

/** jsdom has no layout: give elements a size, so the charts render as they would in a browser. */
export function stubLayout() {
  const rect = { x: 0, y: 0, top: 0, left: 0, right: 600, bottom: 256, width: 600, height: 256 };
  vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockReturnValue({ ...rect, toJSON: () => rect });
}
