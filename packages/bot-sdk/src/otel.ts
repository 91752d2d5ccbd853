import type * as OtelApi from '@opentelemetry/api';
import type * as OtelResources from '@opentelemetry/resources';
import type * as OtelSdk from '@opentelemetry/sdk-trace-base';
import type { LumiContext } from './context.js';
import { telegramId } from './events.js';

/**
 * For bots whose LLM calls are already traced by an OpenTelemetry instrumentation (GenAI spans): a tracer
 * provider that exports to Lumi's `POST /api/otlp/v1/traces` (docs/bot-developers/otlp.md) with the API
 * key, and adds to every span the `lumi.chat_id`, `lumi.user_id` and `lumi.feature` of the context it
 * starts in. The OpenTelemetry packages are optional peer dependencies, loaded only when this is called.
 */

export interface OtelOptions {
  /** `service.name` of the resource. Default "telegram-bot". */
  serviceName?: string;
  /** The OTLP/HTTP encoding; protobuf needs @opentelemetry/exporter-trace-otlp-proto. Default protobuf when installed, else JSON. */
  protocol?: 'http/protobuf' | 'http/json';
  /** Make it the global tracer provider, as instrumentations expect. Default true. */
  register?: boolean;
  /** How long spans may wait for their batch. Default 5,000 ms (the batch span processor's). */
  scheduledDelayMillis?: number;
}

/** What `lumi.otel()` set up. */
export interface LumiOtel {
  /** The tracer provider (an OpenTelemetry `TracerProvider`): `tracerProvider.getTracer(name)`. */
  tracerProvider: { getTracer(name: string, version?: string): unknown };
  /** Exports the spans that ended so far. */
  flush(): Promise<void>;
  /** Exports what is left and stops; `lumi.close()` calls it. */
  shutdown(): Promise<void>;
}

interface WritableSpan {
  attributes: Record<string, unknown>;
  setAttribute(key: string, value: string): unknown;
}

const MISSING =
  'lumi.otel() needs the OpenTelemetry packages: npm install @opentelemetry/api @opentelemetry/sdk-trace-base ' +
  '@opentelemetry/resources @opentelemetry/exporter-trace-otlp-proto (or -otlp-http for JSON)';

async function load<T>(name: string): Promise<T> {
  try {
    return (await import(name)) as T;
  } catch (error) {
    throw new Error(`${MISSING} (${name}: ${(error as Error).message})`);
  }
}

type ExporterModule = {
  OTLPTraceExporter: new (config: { url: string; headers: Record<string, string> }) => unknown;
};

async function loadExporter(protocol: OtelOptions['protocol']): Promise<ExporterModule> {
  if (protocol === 'http/json') return load('@opentelemetry/exporter-trace-otlp-http');
  try {
    return (await import('@opentelemetry/exporter-trace-otlp-proto')) as ExporterModule;
  } catch (error) {
    if (protocol === 'http/protobuf') throw new Error(`${MISSING} (${(error as Error).message})`);
    return load('@opentelemetry/exporter-trace-otlp-http');
  }
}

export async function setUpOtel(
  target: { url: string; apiKey: string },
  context: () => Readonly<LumiContext>,
  options: OtelOptions = {},
): Promise<LumiOtel> {
  // Type-only imports above: nothing of OpenTelemetry is loaded until here.
  const api = await load<typeof OtelApi>('@opentelemetry/api');
  const sdk = await load<typeof OtelSdk>('@opentelemetry/sdk-trace-base');
  const resources = await load<typeof OtelResources>('@opentelemetry/resources');
  const { OTLPTraceExporter } = await loadExporter(options.protocol);

  const exporter = new OTLPTraceExporter({
    url: `${target.url.replace(/\/+$/, '')}/api/otlp/v1/traces`,
    headers: { Authorization: `Bearer ${target.apiKey}` },
  });
  /** Adds the context's chat, user and feature to each span that does not name its own. */
  const contextProcessor = {
    onStart(span: WritableSpan) {
      const { chatId, userId, feature } = context();
      const set = (key: string, value: string | undefined) => {
        if (value !== undefined && span.attributes[key] === undefined) span.setAttribute(key, value);
      };
      set('lumi.chat_id', telegramId(chatId));
      set('lumi.user_id', telegramId(userId));
      set('lumi.feature', feature);
    },
    onEnd() {},
    forceFlush: () => Promise.resolve(),
    shutdown: () => Promise.resolve(),
  };
  const batch = new sdk.BatchSpanProcessor(exporter as never, {
    scheduledDelayMillis: options.scheduledDelayMillis ?? 5000,
  });
  const provider = new sdk.BasicTracerProvider({
    resource: resources.resourceFromAttributes({ 'service.name': options.serviceName ?? 'telegram-bot' }),
    spanProcessors: [contextProcessor as never, batch],
  });
  if (options.register ?? true) api.trace.setGlobalTracerProvider(provider);
  return {
    tracerProvider: provider,
    flush: () => provider.forceFlush(),
    shutdown: async () => {
      await provider.shutdown();
      if (options.register ?? true) api.trace.disable();
    },
  };
}
