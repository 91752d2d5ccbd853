import { describe, expect, it } from 'vitest';
import { genAiCalls, partialSuccess, spanDetail } from './otlp-spans.js';
import type { OtlpAnyValue, OtlpSpan } from './otlp-wire.js';

/** A 64-bit integer as protobufjs's decoder gives it: a Long, with its two 32-bit halves. */
interface Long {
  low: number;
  high: number;
  unsigned: boolean;
}
const long = (n: bigint, unsigned = false): Long => ({
  low: Number(BigInt.asIntN(32, n)),
  high: Number(BigInt.asIntN(32, n >> 32n)),
  unsigned,
});

const START_NS = 1_764_000_000_123_000_000n;
const value = (v: string | number | boolean | Long): OtlpAnyValue =>
  typeof v === 'string'
    ? { value: 'stringValue', stringValue: v }
    : typeof v === 'boolean'
      ? { value: 'boolValue', boolValue: v }
      : typeof v === 'number' && !Number.isInteger(v)
        ? { value: 'doubleValue', doubleValue: v }
        : { value: 'intValue', intValue: v };

function span(attributes: Record<string, string | number | boolean | Long>, fields: Partial<OtlpSpan> = {}) {
  return {
    traceId: Buffer.alloc(16, 0xab),
    spanId: Buffer.alloc(8, 0xcd),
    startTimeUnixNano: long(START_NS, true),
    endTimeUnixNano: long(START_NS + 1_500_250_000n, true),
    attributes: Object.entries(attributes).map(([key, v]) => ({ key, value: value(v) })),
    status: { code: 0 },
    ...fields,
  };
}
const mapped = (...spans: OtlpSpan[]) => genAiCalls({ resourceSpans: [{ scopeSpans: [{ spans }] }] });
const first = (...spans: OtlpSpan[]) => mapped(...spans).calls[0]?.event;

describe('genAiCalls', () => {
  const provider = { 'gen_ai.provider.name': 'openai', 'gen_ai.request.model': 'gpt-4o' };

  it.each([
    [
      'the id, time, duration and defaults',
      provider,
      {},
      {
        id: `otlp:${'ab'.repeat(16)}:${'cd'.repeat(8)}`,
        ts: '2025-11-24T16:00:00.123Z',
        latency_ms: 1500.25,
        input_tokens: 0,
        output_tokens: 0,
        cached: false,
        success: true,
      },
    ],
    [
      'the older gen_ai.system',
      { 'gen_ai.system': 'anthropic', 'gen_ai.request.model': 'claude' },
      {},
      { provider: 'anthropic' },
    ],
    [
      'the response model before the request model',
      { ...provider, 'gen_ai.response.model': 'gpt-4o-2024' },
      {},
      { model: 'gpt-4o-2024' },
    ],
    [
      'usage as int attributes, Long or number',
      { ...provider, 'gen_ai.usage.input_tokens': long(12n), 'gen_ai.usage.output_tokens': 7 },
      {},
      { input_tokens: 12, output_tokens: 7 },
    ],
    [
      'an int64 chat id past 2^53, digit for digit',
      { ...provider, 'lumi.chat_id': long(-1009007199254740993n) },
      {},
      { chat_id: '-1009007199254740993' },
    ],
    [
      'a string user id, feature, cache and cost',
      {
        ...provider,
        'lumi.user_id': '42',
        'lumi.feature': 'digest',
        'lumi.cached': true,
        'lumi.cost_usd': 0.5,
      },
      {},
      { user_id: '42', feature: 'digest', cached: true, cost_usd: 0.5 },
    ],
    ['an error status: failed, no type', provider, { status: { code: 2 } }, { success: false }],
    [
      'error.type: failed with its type',
      { ...provider, 'error.type': 'timeout' },
      {},
      { success: false, error_type: 'timeout' },
    ],
    [
      'a wrongly typed attribute, kept for validation to refuse',
      { ...provider, 'gen_ai.usage.input_tokens': '12' },
      {},
      { input_tokens: '12' },
    ],
  ] as const)('maps %s', (_name, attributes, fields, expected) => {
    const event = first(span(attributes, fields));
    expect(event).toMatchObject({ type: 'llm_call', ...expected });
    if (!('error_type' in expected)) expect(event).not.toHaveProperty('error_type');
  });

  it('ignores spans that name no GenAI provider', () => {
    expect(mapped(span({ 'http.request.method': 'GET', 'gen_ai.request.model': 'gpt-4o' }))).toEqual({
      calls: [],
      rejected: [],
    });
  });

  it.each(['chat', 'text_completion', 'generate_content', 'embeddings'])(
    'maps a %s operation',
    (operation) => {
      expect(first(span({ ...provider, 'gen_ai.operation.name': operation }))).toMatchObject({
        type: 'llm_call',
      });
    },
  );

  it.each(['invoke_agent', 'create_agent', 'execute_tool'])(
    'ignores an %s span, whose model calls are spans of their own',
    (operation) => {
      const attributes = {
        ...provider,
        'gen_ai.operation.name': operation,
        'gen_ai.usage.input_tokens': 900,
      };
      expect(mapped(span(attributes))).toEqual({ calls: [], rejected: [] });
    },
  );

  it.each([
    ['a short trace id', { traceId: Buffer.alloc(8, 1) }, /16-byte trace id/],
    ['an all-zero span id', { spanId: Buffer.alloc(8, 0) }, /8-byte span id/],
    ['no start time', { startTimeUnixNano: 0 }, /^start time: /],
    ['no end time', { endTimeUnixNano: null }, /^end time: /],
  ])('rejects a GenAI span with %s', (_name, fields, reason) => {
    const { calls, rejected } = mapped(span(provider, fields as Partial<OtlpSpan>));
    expect(calls).toEqual([]);
    expect(rejected).toEqual([{ span: expect.any(String), detail: expect.stringMatching(reason) }]);
  });
});

describe('spanDetail', () => {
  it.each([
    [
      'input_tokens: Too small: expected number to be >=0',
      'gen_ai.usage.input_tokens: Too small: expected number to be >=0',
    ],
    ['provider: Provider is required', 'gen_ai.provider.name or gen_ai.system: Provider is required'],
    ['latency_ms: Too small', 'duration: Too small'],
    [
      'ts is older than the 400 days of history Lumi keeps',
      'ts is older than the 400 days of history Lumi keeps',
    ],
  ])('names the attribute in %j', (detail, expected) => {
    expect(spanDetail(detail)).toBe(expected);
  });
});

describe('partialSuccess', () => {
  it('is null when nothing was rejected', () => {
    expect(partialSuccess(3, [])).toBeNull();
  });
  it('counts every rejected span and describes the first three', () => {
    const rejected = ['a', 'b', 'c', 'd', 'e'].map((s) => ({ span: s, detail: `reason ${s}` }));
    expect(partialSuccess(9, rejected)).toEqual({
      rejectedSpans: 5,
      errorMessage:
        '5 of 9 GenAI spans rejected: span a: reason a; span b: reason b; span c: reason c; and 2 more',
    });
  });
});
