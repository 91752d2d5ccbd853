/* eslint-disable @typescript-eslint/no-require-imports -- CommonJS on purpose: the instrumentations patch
   modules as require() loads them, which is how their READMEs set them up. */
// A bot instrumented with OpenLLMetry's Anthropic instrumentation (@traceloop/instrumentation-anthropic,
// registered before `@anthropic-ai/sdk` is required, as its README shows), with the Anthropic SDK's own
// OpenTelemetry tracing left at its default (on: it starts an `anthropic.messages.create` span of its own,
// beneath OpenLLMetry's). Each update's chat, user and feature are OpenLLMetry association properties
// (traceloop.association.properties.*; see tracing.cjs). The server-side failure is Anthropic's 529.
const { registerInstrumentations } = require('@opentelemetry/instrumentation');
const { AnthropicInstrumentation } = require('@traceloop/instrumentation-anthropic');
const { runScenario, settings } = require('./scenario.cjs');
const {
  AssociationPropertiesSpanProcessor,
  startTracing,
  withAssociationProperties,
} = require('./tracing.cjs');

const provider = startTracing('traceloop-anthropic-bot', [new AssociationPropertiesSpanProcessor()]);
registerInstrumentations({ instrumentations: [new AnthropicInstrumentation()] });

const { Anthropic } = require('@anthropic-ai/sdk');

const client = new Anthropic({ baseURL: settings().llmApiUrl, apiKey: 'sk-ant-stand-in', maxRetries: 0 });

const request = (step) => ({
  model: 'claude-3-5-haiku-latest',
  max_tokens: 256,
  system: step.system,
  messages: [{ role: 'user', content: step.prompt }],
});

async function main() {
  await runScenario({
    kinds: ['chat', 'stream'],
    withUpdate: withAssociationProperties,
    failStatus: (status) => (status === 500 ? 529 : status),
    calls: {
      chat: (step) => client.messages.create(request(step), { headers: step.headers }),
      stream: async (step) => {
        const stream = await client.messages.create(
          { ...request(step), stream: true },
          { headers: step.headers },
        );
        for await (const event of stream) void event;
      },
    },
  });
  await provider.shutdown();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
