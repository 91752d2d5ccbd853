/* eslint-disable @typescript-eslint/no-require-imports -- CommonJS, as the bots that require it (they are
   CommonJS so that their instrumentations patch the clients as require() loads them). */
// Tracing as the OpenTelemetry JS docs set it up for Node (https://opentelemetry.io/docs/languages/js/):
// a NodeTracerProvider, registered globally (AsyncLocalStorage context, W3C trace context and baggage
// propagation), with the official OTLP/HTTP protobuf exporter behind a BatchSpanProcessor at its
// defaults, pointed at Lumi as docs/bot-developers/otlp.md says.
const { context, createContextKey } = require('@opentelemetry/api');
const { OTLPTraceExporter } = require('@opentelemetry/exporter-trace-otlp-proto');
const { resourceFromAttributes } = require('@opentelemetry/resources');
const { BatchSpanProcessor } = require('@opentelemetry/sdk-trace-base');
const { NodeTracerProvider } = require('@opentelemetry/sdk-trace-node');
const { settings } = require('./scenario.cjs');

/** Registers the provider; `spanProcessors` run before the exporting one (they set attributes on start). */
function startTracing(serviceName, spanProcessors = []) {
  const { otlpUrl, apiKey } = settings();
  const exporter = new OTLPTraceExporter({ url: otlpUrl, headers: { Authorization: `Bearer ${apiKey}` } });
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': serviceName }),
    spanProcessors: [...spanProcessors, new BatchSpanProcessor(exporter)],
  });
  provider.register();
  return provider;
}

/**
 * OpenLLMetry's association properties without its whole SDK: @traceloop/node-server-sdk keeps the
 * object given to `withAssociationProperties` in the context and its span processor sets each entry on
 * every span started in it as `traceloop.association.properties.<key>` (its `onSpanStart`). The bare
 * instrumentation packages do not, so the bots that use them do the same here.
 */
const ASSOCIATION_PROPERTIES_KEY = createContextKey('association_properties');

function withAssociationProperties(properties, fn) {
  return context.with(context.active().setValue(ASSOCIATION_PROPERTIES_KEY, properties), fn);
}

class AssociationPropertiesSpanProcessor {
  onStart(span, parentContext) {
    const properties = parentContext.getValue(ASSOCIATION_PROPERTIES_KEY);
    for (const [key, value] of Object.entries(properties ?? {})) {
      span.setAttribute(`traceloop.association.properties.${key}`, value);
    }
  }
  onEnd() {}
  forceFlush() {
    return Promise.resolve();
  }
  shutdown() {
    return Promise.resolve();
  }
}

module.exports = { startTracing, withAssociationProperties, AssociationPropertiesSpanProcessor };
