import { describe, expect, it } from 'vitest';
import { partialSuccess, spanDetail } from './otlp-answer.js';
import { genAiCalls } from './otlp-spans.js';
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
const exception = (type: string, message: string) => ({
  name: 'exception',
  attributes: [
    { key: 'exception.type', value: value(type) },
    { key: 'exception.message', value: value(message) },
  ],
});
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
        // A success without usage still counts, its tokens unknown.
        usage_known: false,
      },
    ],
    [
      'the older gen_ai.system',
      { 'gen_ai.system': 'anthropic', 'gen_ai.request.model': 'claude' },
      {},
      { provider: 'anthropic' },
    ],
    [
      'the request model as the model, and a dated response model to price it by',
      { ...provider, 'gen_ai.response.model': 'gpt-4o-2024-08-06' },
      {},
      { model: 'gpt-4o', response_model: 'gpt-4o-2024-08-06' },
    ],
    [
      'a response model without a request model, without its date',
      { 'gen_ai.system': 'openai', 'gen_ai.response.model': 'gpt-4o-mini-2024-07-18' },
      {},
      { model: 'gpt-4o-mini', response_model: 'gpt-4o-mini-2024-07-18' },
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

  it('ignores spans that name no GenAI provider, saying so', () => {
    expect(mapped(span({ 'http.request.method': 'GET', 'gen_ai.request.model': 'gpt-4o' }))).toEqual({
      calls: [],
      rejected: [],
      ignored: [{ traceId: 'ab'.repeat(16), span: 'cd'.repeat(8), name: '', reason: 'not a model call' }],
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
      expect(mapped(span(attributes))).toMatchObject({
        calls: [],
        rejected: [],
        ignored: [{ reason: 'not a model call' }],
      });
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
    expect(rejected).toEqual([
      expect.objectContaining({ span: expect.any(String), detail: expect.stringMatching(reason) }),
    ]);
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
    expect(spanDetail(detail, { input_tokens: 'gen_ai.usage.input_tokens' })).toBe(expected);
  });
  it('names the attribute the span carried, of those of its field', () => {
    expect(spanDetail('input_tokens: Too small', { input_tokens: 'llm.token_count.prompt' })).toBe(
      'llm.token_count.prompt: Too small',
    );
  });
});

describe('partialSuccess', () => {
  const ref = (span: string) => ({ traceId: 'ab'.repeat(16), span, name: `call ${span}` });
  it('is null when every span was stored', () => {
    expect(partialSuccess(3, [], [])).toBeNull();
  });
  it('counts every rejected span and describes the first three', () => {
    const rejected = ['a', 'b', 'c', 'd', 'e'].map((s) => ({ ...ref(s), detail: `reason ${s}` }));
    expect(partialSuccess(9, rejected, [])).toEqual({
      rejectedSpans: 5,
      errorMessage:
        '5 of 9 GenAI spans rejected: span a: reason a; span b: reason b; span c: reason c; and 2 more',
    });
  });
  it('warns of ignored spans without rejecting them: how many, and the first one and why', () => {
    const ignored = [
      { ...ref('a'), reason: 'not a model call' },
      { ...ref('b'), reason: 'counted already under its parent' },
    ];
    expect(partialSuccess(1, [], ignored)).toEqual({
      rejectedSpans: 0,
      errorMessage: '2 spans ignored; the first, span a (call a): not a model call',
    });
  });
});

describe('the conventions of widespread instrumentations (docs/bot-developers/otlp.md, "What Lumi reads")', () => {
  it.each([
    [
      'OpenInference (llm.*, openinference.span.kind, session.id, user.id)',
      {
        'openinference.span.kind': 'LLM',
        'llm.system': 'openai',
        'llm.provider': 'openai',
        'llm.model_name': 'gpt-4o-mini-2024-07-18',
        'llm.token_count.prompt': 12,
        'llm.token_count.completion': 5,
        'session.id': '-1001234567890',
        'user.id': '42',
      },
      {
        provider: 'openai',
        model: 'gpt-4o-mini',
        response_model: 'gpt-4o-mini-2024-07-18',
        input_tokens: 12,
        output_tokens: 5,
        chat_id: '-1001234567890',
        user_id: '42',
      },
    ],
    [
      'OpenInference embeddings',
      {
        'openinference.span.kind': 'EMBEDDING',
        'llm.system': 'openai',
        'embedding.model_name': 'text-embedding-3-small',
        'llm.token_count.prompt': 8,
      },
      { model: 'text-embedding-3-small', input_tokens: 8, output_tokens: 0 },
    ],
    [
      'OpenLLMetry (older gen_ai names, a capitalised system, total tokens)',
      {
        'gen_ai.system': 'OpenAI',
        'llm.request.type': 'chat',
        'gen_ai.request.model': 'gpt-4o-mini',
        'gen_ai.response.model': 'gpt-4o-mini-2024-07-18',
        'gen_ai.usage.prompt_tokens': 20,
        'llm.usage.total_tokens': 27,
        'traceloop.association.properties.chat_id': '777',
      },
      { provider: 'openai', model: 'gpt-4o-mini', input_tokens: 20, output_tokens: 7, chat_id: '777' },
    ],
    [
      "the Vercel AI SDK's doGenerate span (ai.*, its metadata)",
      {
        'ai.operationId': 'ai.generateText.doGenerate',
        'ai.model.provider': 'openai.chat',
        'ai.model.id': 'gpt-4o-mini',
        'ai.response.model': 'gpt-4o-mini-2024-07-18',
        'ai.usage.promptTokens': 30,
        'ai.usage.completionTokens': 9,
        'ai.telemetry.metadata.chat_id': '-100200',
        'ai.telemetry.metadata.user_id': '5',
        'ai.telemetry.metadata.feature': 'reply',
      },
      {
        provider: 'openai',
        model: 'gpt-4o-mini',
        input_tokens: 30,
        output_tokens: 9,
        chat_id: '-100200',
        user_id: '5',
        feature: 'reply',
      },
    ],
    [
      "the Vercel AI SDK's embeddings (ai.usage.tokens)",
      {
        'ai.operationId': 'ai.embed.doEmbed',
        'ai.model.provider': 'openai.embedding',
        'ai.model.id': 'text-embedding-3-small',
        'ai.usage.tokens': 6,
      },
      { provider: 'openai', model: 'text-embedding-3-small', input_tokens: 6 },
    ],
    [
      'cached input tokens',
      {
        ...{ 'gen_ai.provider.name': 'anthropic', 'gen_ai.request.model': 'claude-3-5-haiku-latest' },
        'gen_ai.usage.input_tokens': 100,
        'gen_ai.usage.cache_read.input_tokens': 60,
      },
      { cache_read_tokens: 60 },
    ],
  ] as const)('reads %s', (_name, attributes, expected) => {
    expect(first(span(attributes))).toMatchObject({ type: 'llm_call', success: true, ...expected });
  });

  it('takes a session or user id only when it is a Telegram id', () => {
    const event = first(
      span({
        'llm.system': 'openai',
        'llm.model_name': 'gpt-4o',
        'session.id': 'sess-abc',
        'user.id': 'alice',
      }),
    );
    expect(event).not.toHaveProperty('chat_id');
    expect(event).not.toHaveProperty('user_id');
  });

  it("reads OpenInference's metadata object for the chat, the user and the feature", () => {
    const metadata = JSON.stringify({ chat_id: -1001, userId: 9, feature: 'digest' });
    expect(first(span({ 'llm.system': 'openai', 'llm.model_name': 'gpt-4o', metadata }))).toMatchObject({
      chat_id: '-1001',
      user_id: '9',
      feature: 'digest',
    });
  });

  it.each([
    ['ai.generateText', 'ai.operationId'],
    ['CHAIN', 'openinference.span.kind'],
    ['AGENT', 'openinference.span.kind'],
  ])('ignores a %s wrapper span: its model calls are spans of their own', (kind, key) => {
    expect(
      mapped(span({ [key]: kind, 'ai.model.provider': 'openai.chat', 'ai.model.id': 'gpt-4o' })),
    ).toMatchObject({
      calls: [],
      ignored: [{ reason: 'not a model call' }],
    });
  });

  it.each([
    ['its HTTP status', { 'http.response.status_code': 529 }, {}, 'server_error'],
    [
      'the status its message starts with',
      {},
      { status: { code: 2, message: '429 Rate limit reached' } },
      'rate_limited',
    ],
    [
      "the status in a generic exception's message (OpenLLMetry for Anthropic)",
      {},
      { events: [exception('Error', '429 {"type":"error","error":{"type":"rate_limit_error"}}')] },
      'rate_limited',
    ],
    [
      "Google's error code",
      {},
      { events: [exception('ApiError', '{"error":{"code":503,"status":"UNAVAILABLE"}}')] },
      'server_error',
    ],
    ["an official client's error class", { 'error.type': 'APITimeoutError' }, {}, 'timeout'],
    [
      'an exception type of its own, as it is',
      {},
      { events: [exception('AI_RetryError', 'gave up')] },
      'AI_RetryError',
    ],
    ['error.type, as it is', { 'error.type': 'timeout' }, {}, 'timeout'],
  ] as const)('names a failure by %s', (_name, attributes, fields, expected) => {
    const call = { 'gen_ai.system': 'openai', 'gen_ai.request.model': 'gpt-4o-mini', ...attributes };
    expect(first(span(call, { status: { code: 2 }, ...fields } as Partial<OtlpSpan>))).toMatchObject({
      success: false,
      error_type: expected,
    });
  });

  it('counts a failure under the model asked for, as its successes', () => {
    const ask = { 'gen_ai.system': 'openai', 'gen_ai.request.model': 'gpt-4o-mini' };
    const ok = first(span({ ...ask, 'gen_ai.response.model': 'gpt-4o-mini-2024-07-18' }));
    const failed = first(span(ask, { status: { code: 2 } }));
    expect([ok?.model, failed?.model]).toEqual(['gpt-4o-mini', 'gpt-4o-mini']);
  });

  it.each([
    ['openai.chat', 'openai'],
    ['openai.responses', 'openai'],
    ['anthropic.messages', 'anthropic'],
    ['google.generative-ai', 'google'],
    ['OpenAI', 'openai'],
    ['aws.bedrock', 'aws.bedrock'],
    ['gcp.vertex_ai', 'google'],
    ['gcp.gen_ai', 'google'],
  ])('normalises the provider %s to %s', (provider, expected) => {
    expect(first(span({ 'gen_ai.system': provider, 'gen_ai.request.model': 'm' }))?.provider).toBe(expected);
  });

  it('counts a model call once when another model-call span of the same trace holds it', () => {
    const traceId = Buffer.alloc(16, 0x11);
    const outer = span(
      {
        'gen_ai.system': 'anthropic',
        'llm.request.type': 'chat',
        'gen_ai.request.model': 'claude-3-5-haiku-latest',
      },
      { traceId, spanId: Buffer.alloc(8, 1), name: 'anthropic.chat' },
    );
    const http = span(
      { 'http.request.method': 'POST' },
      { traceId, spanId: Buffer.alloc(8, 2), parentSpanId: Buffer.alloc(8, 1) },
    );
    const inner = span(
      {
        'gen_ai.provider.name': 'anthropic',
        'gen_ai.request.model': 'claude-3-5-haiku-latest',
        'gen_ai.operation.name': 'chat',
      },
      {
        traceId,
        spanId: Buffer.alloc(8, 3),
        parentSpanId: Buffer.alloc(8, 2),
        name: 'anthropic.messages.create',
      },
    );
    // Children end, and are often exported, before their parents.
    const { calls, ignored } = mapped(inner, http, outer);
    expect(calls.map((c) => c.name)).toEqual(['anthropic.chat']);
    expect(ignored.map((i) => [i.name, i.reason])).toEqual([
      ['anthropic.messages.create', 'counted already under its parent'],
      ['', 'not a model call'],
    ]);
  });

  it.each([
    ['thinking the output count leaves out, as the total shows', { 'gen_ai.usage.total_tokens': 148 }, 88],
    ['thinking the output count includes', { 'gen_ai.usage.total_tokens': 82 }, 22],
  ])('adds %s', (_name, total, expected) => {
    const gemini = {
      'gen_ai.provider.name': 'gcp.gen_ai',
      'gen_ai.request.model': 'gemini-2.5-flash',
      'gen_ai.usage.input_tokens': 60,
      'gen_ai.usage.output_tokens': 22,
      'gen_ai.usage.reasoning_tokens': 66,
      ...total,
    };
    expect(first(span(gemini))).toMatchObject({ provider: 'google', output_tokens: expected });
  });

  it("takes the usage of the client's own span beneath when it counts the prompt cache the outer one leaves out", () => {
    const traceId = Buffer.alloc(16, 0x22);
    const outer = span(
      {
        'gen_ai.system': 'anthropic',
        'llm.request.type': 'chat',
        'gen_ai.request.model': 'claude-3-5-haiku-latest',
        'gen_ai.usage.input_tokens': 60,
        'gen_ai.usage.output_tokens': 9,
      },
      { traceId, spanId: Buffer.alloc(8, 1) },
    );
    const inner = span(
      {
        'gen_ai.provider.name': 'anthropic',
        'gen_ai.operation.name': 'chat',
        'gen_ai.request.model': 'claude-3-5-haiku-latest',
        'gen_ai.usage.input_tokens': 188,
        'gen_ai.usage.output_tokens': 9,
        'gen_ai.usage.cache_write.input_tokens': 128,
      },
      { traceId, spanId: Buffer.alloc(8, 2), parentSpanId: Buffer.alloc(8, 1) },
    );
    const { calls } = mapped(inner, outer);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.event).toMatchObject({ input_tokens: 188, output_tokens: 9, cache_write_tokens: 128 });
  });

  it('ignores a model-call span without a model name, saying so', () => {
    expect(mapped(span({ 'gen_ai.provider.name': 'openai' })).ignored).toMatchObject([
      { reason: 'no model name' },
    ]);
  });
});
