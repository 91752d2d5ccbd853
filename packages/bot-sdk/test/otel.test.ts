import { trace } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLumi, type Lumi } from '../src/index.js';
import { FakeLumi } from './fake-lumi.js';

/** `lumi.otel()`: spans of an instrumentation exported to Lumi's OTLP endpoint with the key and the context. */

let lumi: FakeLumi;
let client: Lumi;

beforeAll(async () => {
  lumi = await FakeLumi.start();
  client = createLumi({ url: lumi.url, apiKey: 'lumi_test' });
});

afterAll(async () => {
  await client.close(0);
  await lumi.close();
});

interface OtlpJson {
  resourceSpans: Array<{
    resource: { attributes: Array<{ key: string; value: { stringValue?: string } }> };
    scopeSpans: Array<{
      spans: Array<{ name: string; attributes: Array<{ key: string; value: { stringValue?: string } }> }>;
    }>;
  }>;
}

describe('lumi.otel()', () => {
  it('exports spans to /api/otlp/v1/traces with the API key and the chat, user and feature of their context', async () => {
    const otel = await client.otel({ protocol: 'http/json', serviceName: 'test-bot' });
    // As an instrumentation does: a tracer from the global provider.
    const tracer = trace.getTracer('genai-instrumentation');
    client.withContext({ chatId: -1001, userId: 7, feature: 'reply' }, () => {
      const span = tracer.startSpan('chat gpt-4o-mini', {
        attributes: { 'gen_ai.provider.name': 'openai', 'gen_ai.request.model': 'gpt-4o-mini' },
      });
      span.end();
    });
    const outside = tracer.startSpan('chat outside', { attributes: { 'lumi.feature': 'own' } });
    outside.end();
    await otel.flush();

    const request = lumi.requests.find((r) => r.path === '/api/otlp/v1/traces');
    expect(request?.headers.authorization).toBe('Bearer lumi_test');
    const body = request!.body as OtlpJson;
    const resource = body.resourceSpans[0]!;
    expect(resource.resource.attributes).toContainEqual({
      key: 'service.name',
      value: { stringValue: 'test-bot' },
    });
    const spans = resource.scopeSpans.flatMap((s) => s.spans);
    const attributes = (name: string) =>
      Object.fromEntries(
        spans.find((s) => s.name === name)!.attributes.map((a) => [a.key, a.value.stringValue]),
      );
    expect(attributes('chat gpt-4o-mini')).toMatchObject({
      'lumi.chat_id': '-1001',
      'lumi.user_id': '7',
      'lumi.feature': 'reply',
    });
    expect(attributes('chat outside')).toEqual({ 'lumi.feature': 'own' });
    await otel.shutdown();
  });
});
