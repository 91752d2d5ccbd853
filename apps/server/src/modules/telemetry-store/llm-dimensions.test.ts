import { describe, expect, it } from 'vitest';
import { aggregateLlmDimensions } from './llm-dimensions.js';

const call = (
  ts: string,
  fields: Partial<{
    model: string;
    success: number;
    chat_id: string | null;
    user_id: string | null;
    feature: string | null;
    error_type: string | null;
  }> = {},
) => ({
  client_id: null,
  ts,
  provider: 'openai',
  model: 'gpt-4o',
  input_tokens: 10,
  output_tokens: 5,
  cost_usd: 0.5,
  cost_computed: 0,
  latency_ms: 100,
  cached: 0,
  success: 1,
  chat_id: null,
  user_id: null,
  feature: null,
  error_type: null,
  ...fields,
});

describe('llm dimension aggregation', () => {
  const sums = aggregateLlmDimensions([
    call('2026-11-20T23:59:00.000Z', { feature: 'reply', chat_id: '-100', success: 0 }),
    call('2026-11-20T23:10:00.000Z', { feature: 'reply', chat_id: '-100', user_id: '7' }),
    call('2026-11-21T00:00:00.000Z', { chat_id: '-100', success: 0, error_type: 'timeout' }),
    call('2026-11-20T23:30:00.000Z', { model: 'a-model', success: 1, error_type: 'retried' }),
  ]);

  it('sums usage per hour, feature, provider and model, sorted by key; no feature is ""', () => {
    expect(sums.features.map((f) => [f.hour, f.feature, f.model, f.requests, f.failed_requests])).toEqual([
      ['2026-11-20T23:00:00.000Z', '', 'a-model', 1, 0],
      ['2026-11-20T23:00:00.000Z', 'reply', 'gpt-4o', 2, 1],
      ['2026-11-21T00:00:00.000Z', '', 'gpt-4o', 1, 1],
    ]);
  });

  it('counts failed calls only, by error type, "unknown" where none was given', () => {
    expect(sums.errors).toEqual([
      {
        hour: '2026-11-20T23:00:00.000Z',
        provider: 'openai',
        model: 'gpt-4o',
        error_type: 'unknown',
        errors: 1,
      },
      {
        hour: '2026-11-21T00:00:00.000Z',
        provider: 'openai',
        model: 'gpt-4o',
        error_type: 'timeout',
        errors: 1,
      },
    ]);
  });

  it('sums spend per UTC day and chat (user), skipping calls without one', () => {
    expect(sums.chats).toEqual([
      { day: '2026-11-20', key: '-100', requests: 2, tokens: 30, cost_usd: 1 },
      { day: '2026-11-21', key: '-100', requests: 1, tokens: 15, cost_usd: 0.5 },
    ]);
    expect(sums.users).toEqual([{ day: '2026-11-20', key: '7', requests: 1, tokens: 15, cost_usd: 0.5 }]);
  });
});
