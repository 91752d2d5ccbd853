import type { BotHealth, CacheMetrics, IntegrationMetrics, MarketDataStatus } from '@lumi/contract';
import { describe, expect, it } from 'vitest';
import {
  botStatus,
  cacheStatus,
  integrationsStatus,
  marketStatus,
  systemVerdict,
  type PartStatus,
} from './system-status';

const bot = (telegram_status: string, error_count_24h: number): BotHealth => ({
  telegram_status,
  error_count_24h,
  uptime_seconds: 3600,
  active_locks: [],
});
const market = (data_freshness: string, websocket_status: string): MarketDataStatus => ({
  data_freshness,
  websocket_status,
  last_candle_time: null,
  missing_intervals: 0,
});
const cache = (hit_rate: number, last_updated: string | null = '2025-06-01T10:00:00Z'): CacheMetrics => ({
  hit_rate,
  last_updated,
  total_hits: 10,
  cache_entries: 5,
  avg_response_time_cached: 10,
  avg_response_time_uncached: 100,
});
const integrations = (...rates: number[]): IntegrationMetrics => ({
  data: rates.map((success_rate, index) => ({
    service_name: `service-${index}`,
    last_api_call: '2025-06-01T10:00:00Z',
    last_status: 'success',
    total_calls: 100,
    success_count: success_rate,
    error_count: 100 - success_rate,
    success_rate,
  })),
});

describe('part statuses', () => {
  it.each([
    { name: 'healthy bot', status: botStatus(bot('connected', 2)), expected: 'success' },
    { name: 'bot with 10 errors', status: botStatus(bot('connected', 10)), expected: 'error' },
    { name: 'silent bot', status: botStatus(bot('no_heartbeat', 0)), expected: 'error' },
    { name: 'bot not loaded', status: botStatus(undefined), expected: 'unknown' },
    { name: 'live feed', status: marketStatus(market('current', 'connected')), expected: 'success' },
    {
      name: 'stale feed',
      status: marketStatus(market('stale (9 min behind)', 'connected')),
      expected: 'warning',
    },
    { name: 'feed never reported', status: marketStatus(market('no data', 'unknown')), expected: 'unknown' },
    { name: 'good cache', status: cacheStatus(cache(0.9)), expected: 'success' },
    { name: 'cold cache', status: cacheStatus(cache(0.5)), expected: 'warning' },
    { name: 'cache never reported', status: cacheStatus(cache(0, null)), expected: 'unknown' },
    { name: 'all services fine', status: integrationsStatus(integrations(100, 99.5)), expected: 'success' },
    { name: 'one service slipping', status: integrationsStatus(integrations(100, 97)), expected: 'warning' },
    { name: 'one service failing', status: integrationsStatus(integrations(97, 50)), expected: 'error' },
    { name: 'no services', status: integrationsStatus(integrations()), expected: 'unknown' },
  ])('$name: $expected', ({ status, expected }) => {
    expect(status).toBe(expected);
  });
});

describe('systemVerdict', () => {
  it.each<{ parts: PartStatus[]; expected: PartStatus }>([
    { parts: ['success', 'success', 'success', 'success'], expected: 'success' },
    { parts: ['success', 'warning', 'success', 'unknown'], expected: 'warning' },
    { parts: ['error', 'warning', 'success', 'success'], expected: 'error' },
    { parts: ['success', 'unknown', 'success', 'success'], expected: 'unknown' },
    { parts: ['unknown', 'unknown', 'unknown', 'unknown'], expected: 'unknown' },
  ])('$parts is $expected', ({ parts, expected }) => {
    expect(systemVerdict(parts)).toBe(expected);
  });
});
