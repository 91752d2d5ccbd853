import { gzipSync } from 'node:zlib';
import type {
  IgnoredSpans,
  LlmErrors,
  LlmFeatureUsage,
  LlmLatency,
  LlmTopChats,
  LlmUsage,
} from '@lumi/contract';
import { SpanKind, SpanStatusCode, type Attributes } from '@opentelemetry/api';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import otlpRoot from '@opentelemetry/otlp-transformer/build/src/generated/root.js';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-base';
import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import { dialects, useTestApp } from './helper.js';
import { adminGet, botKey, botKeyWithId } from './telemetry-helper.js';

/**
 * (docs/bot-developers/otlp.md) OTLP/HTTP trace export in both encodings, proven with the official
 * OpenTelemetry JS SDK and its exporters against a listening server, then read back from the dashboards.
 */

/** This file's servers listen in the test's own port range, one port per database. */
const PORT_BASE = 4210;
/** ExportResultCode.SUCCESS of @opentelemetry/core. */
const EXPORT_SUCCESS = 0;
const MINUTE = 60_000;

const { ExportTraceServiceRequest, ExportTraceServiceResponse } = (
  otlpRoot as unknown as {
    opentelemetry: {
      proto: {
        collector: {
          trace: {
            v1: Record<
              'ExportTraceServiceRequest' | 'ExportTraceServiceResponse',
              {
                fromObject(o: object): unknown;
                encode(m: unknown): { finish(): Uint8Array };
                decode(b: Uint8Array): unknown;
                toObject(m: unknown, o: object): Record<string, unknown>;
              }
            >;
          };
        };
      };
    };
  }
).opentelemetry.proto.collector.trace.v1;

/** google.rpc.Status, to read a protobuf error answer. */
const rpcStatus = new protobuf.Root()
  .define('google.rpc')
  .add(
    new protobuf.Type('Status')
      .add(new protobuf.Field('code', 1, 'int32'))
      .add(new protobuf.Field('message', 2, 'string')),
  )
  .lookupType('Status');

/** Finished spans of a tracer, made with the SDK, to hand to an exporter. */
function recorder() {
  const memory = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'lumi-test-bot' }),
    spanProcessors: [new SimpleSpanProcessor(memory)],
  });
  const tracer = provider.getTracer('lumi-test');
  return {
    /** A span that started `agoMs` ago and lasted `durationMs`. */
    span(name: string, attributes: Attributes, agoMs: number, durationMs: number, failed = false) {
      const start = Date.now() - agoMs;
      const span = tracer.startSpan(name, { kind: SpanKind.CLIENT, attributes, startTime: start });
      if (failed) span.setStatus({ code: SpanStatusCode.ERROR, message: 'the provider failed' });
      span.end(start + durationMs);
    },
    spans: (): ReadableSpan[] => memory.getFinishedSpans(),
    reset: () => memory.reset(),
  };
}

function exportWith(exporter: SpanExporter, spans: ReadableSpan[]) {
  return new Promise<{ code: number; error?: Error }>((resolve) => exporter.export(spans, resolve));
}

const genAi = (model: string, fields: Attributes = {}): Attributes => ({
  'gen_ai.operation.name': 'chat',
  'gen_ai.provider.name': 'openai',
  'gen_ai.request.model': model,
  'gen_ai.usage.input_tokens': 100,
  'gen_ai.usage.output_tokens': 40,
  ...fields,
});

/** An OTLP/JSON span as a hand-written client would send it. */
function jsonSpan(spanId: string, attributes: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const start = BigInt(Date.now() - MINUTE) * 1_000_000n;
  return {
    traceId: '5b8efff798038103d269b633813fc60c',
    spanId,
    name: 'chat',
    kind: 3,
    startTimeUnixNano: String(start),
    endTimeUnixNano: String(start + 500_000_000n),
    attributes: Object.entries(attributes).map(([key, value]) => ({
      key,
      value:
        typeof value === 'number'
          ? Number.isInteger(value)
            ? { intValue: String(value) }
            : { doubleValue: value }
          : typeof value === 'boolean'
            ? { boolValue: value }
            : { stringValue: value },
    })),
    status: {},
    ...extra,
  };
}
const hex16 = (n: number) => n.toString(16).padStart(16, '0');
const jsonRequest = (spans: unknown[]) => ({
  resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 'bot' }, spans }] }],
});

describe.each(dialects)('OTLP trace ingestion on %s', (dialect) => {
  const t = useTestApp(dialect);
  const port = PORT_BASE + dialects.indexOf(dialect);
  const url = `http://127.0.0.1:${port}/api/otlp/v1/traces`;

  const get = <T>(path: string) => adminGet<T>(t, path);
  const post = (headers: Record<string, string>, payload: string | Buffer) =>
    t.app.inject({ method: 'POST', url: '/api/otlp/v1/traces', headers, payload });
  const postJson = (key: { authorization: string }, body: unknown) =>
    post({ ...key, 'content-type': 'application/json' }, JSON.stringify(body));
  const postProto = (key: { authorization: string }, body: object) =>
    post(
      { ...key, 'content-type': 'application/x-protobuf' },
      Buffer.from(ExportTraceServiceRequest.encode(ExportTraceServiceRequest.fromObject(body)).finish()),
    );

  it('stores the GenAI spans of the SDK exporters, JSON and protobuf, as llm_calls on the dashboards', async () => {
    const key = await botKey(t);
    await t.app.listen({ port, host: '127.0.0.1' });
    const bot = recorder();
    bot.span(
      'chat gpt-4o',
      genAi('gpt-4o', { 'lumi.chat_id': '-1001234567890', 'lumi.feature': 'reply', 'lumi.user_id': 42 }),
      5 * MINUTE,
      1000,
    );
    bot.span(
      'chat gpt-4o',
      genAi('gpt-4o', {
        'lumi.chat_id': '-1001234567890',
        'lumi.feature': 'reply',
        'lumi.user_id': 42,
        'gen_ai.response.model': 'gpt-4o-2024-08-06',
      }),
      4 * MINUTE,
      3000,
    );
    bot.span(
      'GET /quotes',
      { 'http.request.method': 'GET', 'url.full': 'https://example.test/quotes' },
      4 * MINUTE,
      50,
    );
    const jsonSpans = bot.spans();
    bot.reset();
    // A failed call in the older convention: gen_ai.system, no usage, error.type and an error status.
    bot.span(
      'chat claude',
      {
        'gen_ai.system': 'anthropic',
        'gen_ai.request.model': 'claude-sonnet',
        'error.type': 'timeout',
        'lumi.chat_id': 777,
        'lumi.feature': 'digest',
      },
      3 * MINUTE,
      2000,
      true,
    );
    bot.span(
      'chat claude',
      genAi('claude-sonnet', {
        'gen_ai.provider.name': 'anthropic',
        'lumi.chat_id': 777,
        'lumi.feature': 'digest',
        'lumi.cost_usd': 0.25,
      }),
      2 * MINUTE,
      2000,
    );
    const protoSpans = bot.spans();

    const headers = { authorization: key.authorization };
    const json = new JsonExporter({ url, headers });
    const proto = new ProtoExporter({ url, headers });
    expect(await exportWith(json, jsonSpans)).toEqual({ code: EXPORT_SUCCESS });
    expect(await exportWith(proto, protoSpans)).toEqual({ code: EXPORT_SUCCESS });

    const usage = await get<LlmUsage>('/api/metrics/llm-usage?days=1');
    expect(usage.totals.requests).toBe(4);
    expect(usage.totals.tokens).toBe(3 * 140);

    const features = await get<LlmFeatureUsage>('/api/metrics/llm/features');
    const byFeature: Record<string, LlmFeatureUsage['features'][number]> = Object.fromEntries(
      features.features.map((f) => [f.feature ?? 'none', f]),
    );
    expect(byFeature.reply).toMatchObject({
      requests: 2,
      failed_requests: 0,
      input_tokens: 200,
      output_tokens: 80,
    });
    expect(byFeature.digest).toMatchObject({
      requests: 2,
      failed_requests: 1,
      input_tokens: 100,
      cost_usd: 0.25,
    });
    // The model asked for names the call; the dated model that answered only prices it.
    expect(byFeature.reply?.models.map((m) => m.model)).toEqual(['gpt-4o']);

    const chats = await get<LlmTopChats>('/api/metrics/llm/top-chats');
    expect(chats.chats.map((c) => [c.chat_id, c.requests])).toEqual(
      expect.arrayContaining([
        ['-1001234567890', 2],
        ['777', 2],
      ]),
    );

    const errors = await get<LlmErrors>('/api/metrics/llm/errors');
    expect(errors.error_types).toEqual([
      { error_type: 'timeout', errors: 1, error_rate: expect.any(Number) },
    ]);

    const latency = await get<LlmLatency>('/api/metrics/llm/latency');
    const claude = latency.models.find((m) => m.model === 'claude-sonnet');
    expect(claude?.total.requests).toBe(2);
    expect(claude?.total.p50_ms).toBeGreaterThan(2000 * 0.95);
    expect(claude?.total.p50_ms).toBeLessThan(2000 * 1.05);

    // Sent again, once after the other and twice at once, by both exporters: each span counts once.
    expect(await exportWith(json, jsonSpans)).toEqual({ code: EXPORT_SUCCESS });
    const again = await Promise.all([exportWith(proto, protoSpans), exportWith(proto, protoSpans)]);
    expect(again).toEqual([{ code: EXPORT_SUCCESS }, { code: EXPORT_SUCCESS }]);
    expect((await get<LlmUsage>('/api/metrics/llm-usage?days=1')).totals.requests).toBe(4);
    const featuresAfter = await get<LlmFeatureUsage>('/api/metrics/llm/features');
    expect(featuresAfter.features.map((f) => [f.feature, f.requests]).sort()).toEqual([
      ['digest', 2],
      ['reply', 2],
    ]);
    await Promise.all([json.shutdown(), proto.shutdown()]);
  });

  it.runIf(dialect === 'postgres')('counts a batch sent to two instances at once once', async () => {
    const key = await botKey(t);
    const other = await t.secondInstance();
    const spans = Array.from({ length: 50 }, (_, i) =>
      jsonSpan(hex16(i + 1), { 'gen_ai.provider.name': 'openai', 'gen_ai.request.model': 'gpt-4o' }),
    );
    const request = (app: typeof t.app) =>
      app.inject({
        method: 'POST',
        url: '/api/otlp/v1/traces',
        headers: { ...key, 'content-type': 'application/json' },
        payload: JSON.stringify(jsonRequest(spans)),
      });
    const answers = await Promise.all([request(t.app), request(other), request(t.app), request(other)]);
    expect(answers.map((res) => [res.statusCode, res.body])).toEqual(Array(4).fill([200, '{}']));
    expect((await get<LlmUsage>('/api/metrics/llm-usage?days=1')).totals.requests).toBe(50);
  });

  it('accepts a gzipped export from the SDK exporter', async () => {
    const key = await botKey(t);
    await t.app.listen({ port, host: '127.0.0.1' });
    const bot = recorder();
    bot.span('chat', genAi('gpt-4o-mini', { 'lumi.feature': 'summarize' }), MINUTE, 700);
    const exporter = new ProtoExporter({ url, headers: key, compression: 'gzip' as never });
    expect(await exportWith(exporter, bot.spans())).toEqual({ code: EXPORT_SUCCESS });
    const features = await get<LlmFeatureUsage>('/api/metrics/llm/features');
    expect(features.features.map((f) => [f.feature, f.requests])).toEqual([['summarize', 1]]);
    await exporter.shutdown();
  });

  it('answers an export with no GenAI span with a warning naming it, in the same encoding', async () => {
    const { id: keyId, headers: key } = await botKeyWithId(t);
    const body = jsonRequest([jsonSpan('1111111111111111', { 'http.request.method': 'GET' })]);
    const json = await postJson(key, body);
    expect(json.statusCode).toBe(200);
    expect(json.headers['content-type']).toMatch(/^application\/json/);
    expect(json.json()).toEqual({
      partialSuccess: {
        rejectedSpans: '0',
        errorMessage: '1 span ignored; the first, span 1111111111111111 (chat): not a model call',
      },
    });
    const proto = await postProto(key, {
      resourceSpans: [
        {
          scopeSpans: [{ spans: [{ name: 'db', traceId: Buffer.alloc(16, 1), spanId: Buffer.alloc(8, 1) }] }],
        },
      ],
    });
    expect(proto.statusCode).toBe(200);
    expect(proto.headers['content-type']).toMatch(/^application\/x-protobuf/);
    expect(
      ExportTraceServiceResponse.toObject(ExportTraceServiceResponse.decode(proto.rawPayload), {
        longs: Number,
      }),
    ).toEqual({
      partialSuccess: {
        rejectedSpans: 0,
        errorMessage: expect.stringMatching(
          /^1 span ignored; the first, span 0101010101010101 \(db\): not a model call$/,
        ),
      },
    });
    expect((await get<LlmUsage>('/api/metrics/llm-usage?days=1')).totals.requests).toBe(0);
    // The console lists the key's latest ignored spans, newest first.
    const ignored = await get<IgnoredSpans>(`/api/admin/api-keys/${keyId}/ignored-spans`);
    expect(ignored.spans).toEqual([
      {
        received_at: expect.any(String),
        trace_id: '01'.repeat(16),
        span_id: '01'.repeat(8),
        name: 'db',
        reason: 'not a model call',
      },
      {
        received_at: expect.any(String),
        trace_id: '5b8efff798038103d269b633813fc60c',
        span_id: '1111111111111111',
        name: 'chat',
        reason: 'not a model call',
      },
    ]);
  });

  it('stores the valid GenAI spans and reports the rejected ones as a partial success', async () => {
    const key = await botKey(t);
    const spans = [
      jsonSpan('0000000000000001', {
        'gen_ai.provider.name': 'openai',
        'gen_ai.request.model': 'gpt-4o',
        'gen_ai.usage.input_tokens': 10,
      }),
      jsonSpan('0000000000000002', {
        'gen_ai.provider.name': 'openai',
        'gen_ai.request.model': 'gpt-4o',
        'gen_ai.usage.input_tokens': -5,
      }),
      jsonSpan('0000000000000003', {
        'gen_ai.provider.name': 'openai',
        'gen_ai.request.model': 'gpt-4o',
        'lumi.chat_id': 'chat 12',
      }),
      jsonSpan('0000000000000004', { 'gen_ai.provider.name': 'openai' }),
      jsonSpan(
        '0000000000000005',
        { 'gen_ai.provider.name': 'openai', 'gen_ai.request.model': 'gpt-4o' },
        { spanId: '' },
      ),
      jsonSpan('0000000000000006', { 'http.route': '/users' }),
    ];
    const res = await postJson(key, jsonRequest(spans));
    expect(res.statusCode, res.body).toBe(200);
    const partial = res.json<{ partialSuccess: { rejectedSpans: string; errorMessage: string } }>()
      .partialSuccess;
    expect(partial.rejectedSpans).toBe('3');
    expect(partial.errorMessage).toMatch(/^3 of 4 GenAI spans rejected: /);
    expect(partial.errorMessage).toContain('span without an id: needs a 16-byte trace id');
    expect(partial.errorMessage).toContain('span 0000000000000002: gen_ai.usage.input_tokens:');
    expect(partial.errorMessage).toContain('span 0000000000000003: lumi.chat_id: Must be a Telegram id');
    // A model call without a model name, and a span that is no model call, are ignored, not rejected.
    expect(partial.errorMessage).toMatch(
      /\. 2 spans ignored; the first, span 0000000000000004 \(chat\): no model name$/,
    );
    expect((await get<LlmUsage>('/api/metrics/llm-usage?days=1')).totals.requests).toBe(1);

    const proto = await postProto(key, {
      resourceSpans: [
        {
          scopeSpans: [
            {
              spans: [
                {
                  traceId: Buffer.alloc(16, 7),
                  spanId: Buffer.alloc(8, 7),
                  startTimeUnixNano: String(BigInt(Date.now()) * 1_000_000n),
                  endTimeUnixNano: String(BigInt(Date.now() - 1000) * 1_000_000n),
                  attributes: [
                    { key: 'gen_ai.system', value: { stringValue: 'openai' } },
                    { key: 'gen_ai.request.model', value: { stringValue: 'gpt-4o' } },
                  ],
                },
              ],
            },
          ],
        },
      ],
    });
    expect(proto.statusCode).toBe(200);
    const decoded = ExportTraceServiceResponse.toObject(ExportTraceServiceResponse.decode(proto.rawPayload), {
      longs: Number,
    });
    expect(decoded).toEqual({
      partialSuccess: {
        rejectedSpans: 1,
        errorMessage: expect.stringMatching(
          /^1 of 1 GenAI spans rejected: span 0707070707070707: duration: /,
        ),
      },
    });
  });

  it('stores hostile text verbatim where it is printable and rejects control characters', async () => {
    const key = await botKey(t);
    const hostile = `'; DROP TABLE llm_calls; -- <script>alert(1)</script> "${'\u202e'}x`;
    const spans = [
      jsonSpan(
        '00000000000000a1',
        { 'gen_ai.provider.name': 'openai', 'gen_ai.request.model': 'gpt-4o', 'lumi.feature': 'ok' },
        { name: '\u0000\u001b[31m' },
      ),
      jsonSpan('00000000000000a2', {
        'gen_ai.provider.name': 'openai',
        'gen_ai.request.model': 'gpt-4o',
        'lumi.feature': 'bad\u0000feature',
      }),
      jsonSpan('00000000000000a3', {
        'gen_ai.provider.name': 'openai',
        'gen_ai.request.model': 'x'.repeat(201),
      }),
      jsonSpan('00000000000000a4', {
        'gen_ai.provider.name': 'openai',
        'gen_ai.request.model': 'gpt-4o',
        'lumi.feature': hostile.slice(0, 40),
      }),
      jsonSpan('00000000000000a5', {
        'gen_ai.provider.name': 'openai',
        'gen_ai.request.model': 'gpt-4o',
        'lumi.user_id': '1 OR 1=1',
      }),
    ];
    const res = await postJson(key, jsonRequest(spans));
    expect(res.statusCode, res.body).toBe(200);
    const partial = res.json<{ partialSuccess: { rejectedSpans: string; errorMessage: string } }>()
      .partialSuccess;
    expect(partial.rejectedSpans).toBe('3');
    expect(partial.errorMessage).not.toContain('\u0000');
    const features = await get<LlmFeatureUsage>('/api/metrics/llm/features');
    expect(features.features.map((f) => f.feature).sort()).toEqual([hostile.slice(0, 40), 'ok'].sort());
  });

  it('answers 400 with a reason, in the request encoding, for a body it cannot read', async () => {
    const key = await botKey(t);
    const cases: [Record<string, string>, string | Buffer, RegExp][] = [
      [{ 'content-type': 'application/json' }, '{"resourceSpans": [', /not valid JSON/],
      [{ 'content-type': 'application/json' }, '[]', /must be a JSON object/],
      [{ 'content-type': 'application/json' }, '{"resourceSpans": 5}', /resourceSpans: array expected/],
      [{ 'content-type': 'application/json' }, '['.repeat(200) + ']'.repeat(200), /nested more than/],
      [{ 'content-type': 'application/json', 'content-encoding': 'gzip' }, 'not gzip', /not valid gzip/],
      [
        { 'content-type': 'application/json', 'content-encoding': 'gzip' },
        gzipSync(Buffer.alloc(2 * 1024 * 1024, 32)),
        /larger than 1,048,576 bytes once uncompressed/,
      ],
    ];
    for (const [headers, payload, reason] of cases) {
      const res = await post({ ...key, ...headers }, payload);
      expect(res.statusCode, res.body).toBe(400);
      // google.rpc.Status in proto3 JSON (an int32 may be a string) and the API's error shape at once.
      expect(res.json()).toMatchObject({
        code: '3',
        message: expect.stringMatching(reason),
        detail: expect.stringMatching(reason),
      });
      expect(rpcStatus.toObject(rpcStatus.fromObject(res.json<object>()))).toMatchObject({ code: 3 });
    }
    const proto = await post(
      { ...key, 'content-type': 'application/x-protobuf' },
      Buffer.from([0x0a, 0xff, 0x01]),
    );
    expect(proto.statusCode).toBe(400);
    expect(proto.headers['content-type']).toMatch(/^application\/x-protobuf/);
    expect(rpcStatus.toObject(rpcStatus.decode(proto.rawPayload))).toEqual({
      code: 3,
      message: expect.stringMatching(/^The body is not a protobuf ExportTraceServiceRequest: /),
    });

    const many = Array.from({ length: 1001 }, (_, i) =>
      jsonSpan(i.toString(16).padStart(16, '0'), {
        'gen_ai.provider.name': 'openai',
        'gen_ai.request.model': 'm',
      }),
    );
    const tooMany = await postJson(key, jsonRequest(many));
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json<{ detail: string }>().detail).toMatch(
      /At most 1,000 GenAI spans per request, not 1,001/,
    );
    expect((await get<LlmUsage>('/api/metrics/llm-usage?days=1')).totals.requests).toBe(0);
  });

  it('answers 415 for another media type or content encoding, 413 past the size limit', async () => {
    const key = await botKey(t);
    const body = JSON.stringify(jsonRequest([]));
    const mediaTypes: Record<string, string>[] = [
      { 'content-type': 'text/plain' },
      { 'content-type': 'application/protobuf' },
      {},
    ];
    for (const headers of mediaTypes) {
      const res = await post({ ...key, ...headers }, body);
      expect(res.statusCode, JSON.stringify(headers)).toBe(415);
      expect(res.json<{ detail: string }>().detail).toMatch(/application\/x-protobuf or application\/json/);
    }
    const brotli = await post({ ...key, 'content-type': 'application/json', 'content-encoding': 'br' }, body);
    expect(brotli.statusCode).toBe(415);
    const large = await post({ ...key, 'content-type': 'application/json' }, ' '.repeat(1024 * 1024 + 1));
    expect(large.statusCode).toBe(413);
  });

  it('admits only API keys with ingest:write', async () => {
    const body = JSON.stringify(jsonRequest([]));
    const json = { 'content-type': 'application/json' };
    expect((await post(json, body)).statusCode).toBe(401);
    expect((await post({ ...json, authorization: 'Bearer lumi_not-a-key' }, body)).statusCode).toBe(401);
    const reader = await botKey(t, ['config:read']);
    expect((await post({ ...json, ...reader }, body)).statusCode).toBe(403);
    const admin = await t.loginAdmin();
    expect((await post({ ...json, ...admin.auth }, body)).statusCode).toBe(403);
    expect((await post({ ...json, ...(await botKey(t)) }, body)).statusCode).toBe(200);
  });
});
