import { describe, expect, it } from 'vitest';
import {
  aggregateCacheReports,
  aggregateErrors,
  aggregateIntegrationCalls,
  aggregateLlmCalls,
} from './rollup-aggregation.js';

const call = (
  ts: string,
  provider: string,
  model: string,
  fields: Partial<{ cost_usd: number; success: number; cached: number; unpriced: number }> = {},
) => ({
  client_id: null,
  ts,
  provider,
  model,
  input_tokens: 10,
  output_tokens: 5,
  cost_usd: 0.5,
  cost_computed: 0,
  latency_ms: 100,
  cached: 0,
  success: 1,
  unpriced: 0,
  usage_known: 1,
  ...fields,
});

describe('rollup aggregation', () => {
  it('sums LLM calls into one row per hour, provider and model, sorted by key', () => {
    const rows = aggregateLlmCalls(
      [
        call('2026-11-20T12:59:00.000Z', 'openai', 'gpt-4o', { success: 0 }),
        call('2026-11-20T11:10:00.000Z', 'openai', 'gpt-4o'),
        call('2026-11-20T12:01:00.000Z', 'openai', 'gpt-4o', { cached: 1, unpriced: 1 }),
        call('2026-11-20T12:30:00.000Z', 'gemini', 'gemini-pro'),
      ],
      'hour',
    );
    expect(rows).toEqual([
      expect.objectContaining({ bucket: '2026-11-20T11:00:00.000Z', provider: 'openai', requests: 1 }),
      expect.objectContaining({ bucket: '2026-11-20T12:00:00.000Z', provider: 'gemini', requests: 1 }),
      {
        bucket: '2026-11-20T12:00:00.000Z',
        provider: 'openai',
        model: 'gpt-4o',
        requests: 2,
        failed_requests: 1,
        cached_requests: 1,
        input_tokens: 20,
        output_tokens: 10,
        cost_usd: 1,
        latency_ms_total: 200,
        last_call_at: '2026-11-20T12:59:00.000Z',
        unpriced_requests: 1,
      },
    ]);
  });

  it('keeps the status of the latest integration call of the hour', () => {
    const base = { client_id: null, service_name: 'exchange', latency_ms: 10, error: null };
    const [row] = aggregateIntegrationCalls(
      [
        { ...base, ts: '2026-11-20T12:40:00.000Z', status: 'error' },
        { ...base, ts: '2026-11-20T12:10:00.000Z', status: 'success' },
        { ...base, ts: '2026-11-20T12:20:00.000Z', status: 'other' },
      ],
      'hour',
    );
    expect(row).toMatchObject({
      total_calls: 3,
      success_count: 1,
      error_count: 1,
      last_call_at: '2026-11-20T12:40:00.000Z',
      last_status: 'error',
    });
  });

  it('weights cache averages by their hits and misses, and counts errors per source', () => {
    const report = (hits: number, misses: number, cached: number, uncached: number) => ({
      client_id: null,
      ts: '2026-11-20T12:00:00.000Z',
      hits,
      misses,
      entries: 1,
      avg_response_time_cached_ms: cached,
      avg_response_time_uncached_ms: uncached,
    });
    expect(aggregateCacheReports([report(8, 2, 5, 500), report(2, 8, 10, 300)], 'hour')).toEqual([
      {
        bucket: '2026-11-20T12:00:00.000Z',
        reports: 2,
        hits: 10,
        misses: 10,
        cached_ms_total: 60,
        uncached_ms_total: 3400,
      },
    ]);
    const error = (source: string) => ({
      client_id: null,
      ts: '2026-11-20T12:00:00.000Z',
      source,
      message: 'x',
    });
    expect(
      aggregateErrors([error('b'), error('a'), error('b')], 'hour').map((r) => [r.source, r.errors]),
    ).toEqual([
      ['a', 1],
      ['b', 2],
    ]);
  });

  it('sums the same events by minute for the minute rollups', () => {
    const rows = aggregateLlmCalls(
      [
        call('2026-11-20T12:01:59.999Z', 'openai', 'gpt-4o', { success: 0 }),
        call('2026-11-20T12:01:00.000Z', 'openai', 'gpt-4o'),
        call('2026-11-20T12:02:00.000Z', 'openai', 'gpt-4o'),
      ],
      'minute',
    );
    expect(rows.map((r) => [r.bucket, r.requests, r.failed_requests])).toEqual([
      ['2026-11-20T12:01:00.000Z', 2, 1],
      ['2026-11-20T12:02:00.000Z', 1, 0],
    ]);
    const error = (ts: string) => ({ client_id: null, ts, source: 'scheduler', message: 'x' });
    expect(
      aggregateErrors([error('2026-11-20T12:59:30.000Z'), error('2026-11-20T13:00:00.000Z')], 'minute').map(
        (r) => [r.bucket, r.errors],
      ),
    ).toEqual([
      ['2026-11-20T12:59:00.000Z', 1],
      ['2026-11-20T13:00:00.000Z', 1],
    ]);
  });
});
