// The part of the demo bot that is instrumented with OpenTelemetry: its LLM calls become GenAI spans made
// by the official OpenTelemetry JS SDK and sent by its OTLP/HTTP exporters (protobuf and JSON) to Lumi's
// POST /api/otlp/v1/traces, as a bot already using OpenTelemetry would report without custom code.
//
// Span ids are derived from the event's id, so a re-sent slot makes the same spans and Lumi counts each
// once (idempotent on trace id + span id).

import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';

/** FNV-1a of a text, as 8 hex digits. */
function fnvHex(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}
const idOf = (text, words) => Array.from({ length: words }, (_, i) => fnvHex(`${i}:${text}`)).join('');

/** The GenAI semantic-convention attributes, and Lumi's own, of one llm_call event. */
function attributesOf(event) {
  const attributes = {
    'gen_ai.operation.name': 'chat',
    'gen_ai.provider.name': event.provider,
    'gen_ai.request.model': event.model,
    'gen_ai.usage.input_tokens': event.input_tokens,
    'gen_ai.usage.output_tokens': event.output_tokens,
    'lumi.chat_id': event.chat_id,
    'lumi.user_id': event.user_id,
    'lumi.feature': event.feature,
    'lumi.cached': event.cached,
  };
  if (event.cost_usd !== undefined) attributes['lumi.cost_usd'] = event.cost_usd;
  if (event.error_type) attributes['error.type'] = event.error_type;
  return attributes;
}

/**
 * Reports llm_call events as spans: `report(events, encoding)` resolves with the number of spans sent, or
 * rejects with the exporter's error.
 */
export function createOtlpReporter({ baseUrl, apiKey }) {
  const url = `${baseUrl}/api/otlp/v1/traces`;
  const headers = { authorization: `Bearer ${apiKey}` };
  const exporters = {
    protobuf: new ProtoExporter({ url, headers }),
    json: new JsonExporter({ url, headers }),
  };
  const next = { traceId: '', spanId: '' };
  const finished = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'lumi-demo-bot' }),
    idGenerator: { generateTraceId: () => next.traceId, generateSpanId: () => next.spanId },
    spanProcessors: [new SimpleSpanProcessor(finished)],
  });
  const tracer = provider.getTracer('lumi-demo-bot');

  return {
    async report(events, encoding) {
      if (events.length === 0) return 0;
      finished.reset();
      for (const event of events) {
        next.traceId = idOf(`trace:${event.id}`, 4);
        next.spanId = idOf(`span:${event.id}`, 2);
        const start = Date.parse(event.ts);
        const span = tracer.startSpan(`chat ${event.model}`, {
          kind: SpanKind.CLIENT,
          startTime: start,
          attributes: attributesOf(event),
        });
        if (!event.success) span.setStatus({ code: SpanStatusCode.ERROR, message: event.error_type });
        span.end(start + event.latency_ms);
      }
      const spans = finished.getFinishedSpans();
      const result = await new Promise((resolve) => exporters[encoding].export(spans, resolve));
      if (result.error) throw result.error;
      return spans.length;
    },
    shutdown: () =>
      Promise.all([exporters.protobuf.shutdown(), exporters.json.shutdown(), provider.shutdown()]),
  };
}
