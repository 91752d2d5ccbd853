// Part `otlp` of `npm run bench` (scripts/bench.mjs): OTLP trace ingestion throughput in spans per second,
// protobuf and JSON, beside the JSON ingestion API's events per second for the same LLM calls, on one
// running server. The spans are made by the official OpenTelemetry JS SDK and encoded by its own OTLP
// serializers, all before the clock starts, so the client costs little; each request is a batch of GenAI
// spans as an exporter would send it.
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { createProgress } from '../lib/progress.mjs';
import { LLM_MODELS } from '../demo/simulated-bot.mjs';
import { percentile } from './percentile.mjs';
import { fmt, say } from './print.mjs';
import { onEachDatabase, withServer } from './scratch.mjs';
import { BATCH_SIZE, BATCHES, INGEST_CONNECTIONS, PASSWORD } from './settings.mjs';

const hex = (n, digits) => n.toString(16).padStart(digits, '0');

/** The calls of one batch: the same made-up LLM calls as the ingestion part's workload (workload.mjs). */
function callsOf(batch, batchSize, tag, now) {
  return Array.from({ length: batchSize }, (_, i) => {
    const n = batch * batchSize + i;
    const model = LLM_MODELS[n % LLM_MODELS.length];
    return {
      n,
      id: `${tag}-${n}`,
      start: now - 23 * 3600 * 1000 + ((n * 7919) % (22 * 3600 * 1000)),
      provider: model.provider,
      model: model.model,
      input: 300 + ((n * 7919) % 2500),
      output: 50 + ((n * 104729) % 600),
      latency: 200 + (n % 1500),
      success: n % 67 !== 0,
      chat: String(-1001600000000 - (n % 300)),
      user: String(40000000 + (n % 450)),
      feature: ['reply', 'summarize', 'digest'][n % 3],
    };
  });
}

/** Request bodies, each `batchSize` GenAI spans: protobuf and JSON from the SDK, and the JSON API's events. */
function bodies(batches, batchSize, tag) {
  const now = Date.now();
  const next = { trace: '', span: '' };
  const finished = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'lumi-bench-bot' }),
    idGenerator: { generateTraceId: () => next.trace, generateSpanId: () => next.span },
    spanProcessors: [new SimpleSpanProcessor(finished)],
  });
  const tracer = provider.getTracer('lumi-bench');
  // Each encoding gets spans of its own (trace ids differ by a prefix), so none is a duplicate of another.
  const spansOf = (calls, prefix) => {
    finished.reset();
    for (const call of calls) {
      next.trace = `${prefix}${hex(call.n, 30)}`;
      next.span = hex(call.n + 1, 16);
      const span = tracer.startSpan(`chat ${call.model}`, {
        kind: SpanKind.CLIENT,
        startTime: call.start,
        attributes: {
          'gen_ai.operation.name': 'chat',
          'gen_ai.provider.name': call.provider,
          'gen_ai.request.model': call.model,
          'gen_ai.usage.input_tokens': call.input,
          'gen_ai.usage.output_tokens': call.output,
          'lumi.chat_id': call.chat,
          'lumi.user_id': call.user,
          'lumi.feature': call.feature,
        },
      });
      if (!call.success) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end(call.start + call.latency);
    }
    return finished.getFinishedSpans();
  };
  const result = { protobuf: [], json: [], events: [] };
  for (let b = 0; b < batches; b += 1) {
    const calls = callsOf(b, batchSize, tag, now);
    result.protobuf.push(ProtobufTraceSerializer.serializeRequest(spansOf(calls, 'a1')));
    result.json.push(JsonTraceSerializer.serializeRequest(spansOf(calls, 'b2')));
    const events = calls.map((c) => ({
      type: 'llm_call',
      id: c.id,
      ts: new Date(c.start).toISOString(),
      provider: c.provider,
      model: c.model,
      input_tokens: c.input,
      output_tokens: c.output,
      latency_ms: c.latency,
      cached: false,
      success: c.success,
      chat_id: c.chat,
      user_id: c.user,
      feature: c.feature,
    }));
    result.events.push(JSON.stringify({ events }));
  }
  return result;
}

const ROUTES = {
  protobuf: { path: '/api/otlp/v1/traces', type: 'application/x-protobuf', unit: 'spans' },
  json: { path: '/api/otlp/v1/traces', type: 'application/json', unit: 'spans' },
  events: { path: '/api/ingest/events', type: 'application/json', unit: 'events' },
};

/** Posts the bodies over `connections` concurrent requests; every call must be stored. */
async function run(baseUrl, key, kind, list, batchSize, connections, label) {
  const route = ROUTES[kind];
  const headers = { authorization: `Bearer ${key}`, 'content-type': route.type };
  const latencies = [];
  let next = 0;
  const progress = createProgress({ label: `OTLP bench on ${label}: ${kind}` });
  const started = process.hrtime.bigint();
  const worker = async () => {
    while (next < list.length) {
      const body = list[next];
      next += 1;
      const t0 = process.hrtime.bigint();
      const response = await fetch(`${baseUrl}${route.path}`, { method: 'POST', headers, body });
      const text = await response.text();
      latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
      // An OTLP answer is empty (protobuf) or {} (JSON) when no span was rejected.
      const clean =
        kind === 'events' ? JSON.parse(text).accepted === batchSize : text === '' || text === '{}';
      if (!response.ok || !clean) {
        throw new Error(`${kind}: ${route.path} answered ${response.status}: ${text.slice(0, 300)}`);
      }
      progress.update(
        latencies.length / list.length,
        `${fmt(latencies.length)} of ${fmt(list.length)} batches`,
      );
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const total = list.length * batchSize;
  progress.finish(`OTLP bench on ${label}: ${kind}, ${fmt(total)} ${route.unit} in ${seconds.toFixed(1)} s.`);
  latencies.sort((a, b) => a - b);
  return {
    kind,
    unit: route.unit,
    total,
    perSecond: total / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  };
}

/**
 * Measures OTLP protobuf, OTLP JSON and the JSON ingestion API with the same LLM calls on a running
 * server (`server.api`, `server.baseUrl`), signing in with `password`; prints the figures and returns them.
 */
async function measureOtlp(label, server, { password, batches, batchSize, connections }) {
  const token = await server.api.signIn('admin', password);
  const { key } = await server.api.createApiKey(token, `bench otlp ${label}`, ['ingest:write']);
  const warmup = bodies(5, batchSize, 'otlp-warmup');
  for (const kind of Object.keys(ROUTES))
    await run(server.baseUrl, key, kind, warmup[kind], batchSize, 1, label);
  const work = bodies(batches, batchSize, 'otlp');
  const bytes = (list) => list.reduce((sum, body) => sum + (body.length ?? body.byteLength), 0) / list.length;
  const results = [];
  for (const kind of Object.keys(ROUTES)) {
    results.push({
      ...(await run(server.baseUrl, key, kind, work[kind], batchSize, connections, label)),
      bodyBytes: bytes(work[kind]),
    });
  }
  say(
    `OTLP ingestion on ${label}: ${fmt(batches)} batches of ${fmt(batchSize)} GenAI spans (LLM calls), ${connections} in flight`,
  );
  const names = { protobuf: 'OTLP protobuf', json: 'OTLP JSON', events: 'JSON ingestion API' };
  for (const r of results) {
    say(
      `  ${names[r.kind].padEnd(20)} ${fmt(r.perSecond).padStart(8)} ${r.unit}/s` +
        `   request p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms, body ${fmt(r.bodyBytes / 1024)} KiB`,
    );
  }
  return { label, results };
}

/** Part `otlp` of `npm run bench` (scripts/bench.mjs): measures and prints the figures on each database. */
export async function otlpPart() {
  const options = {
    password: PASSWORD,
    batches: BATCHES,
    batchSize: BATCH_SIZE,
    connections: INGEST_CONNECTIONS,
  };
  await onEachDatabase('otlp', (label, env) =>
    withServer(env, (server) => measureOtlp(label, server, options)),
  );
}
