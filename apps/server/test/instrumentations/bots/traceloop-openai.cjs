/* eslint-disable @typescript-eslint/no-require-imports -- CommonJS on purpose: the instrumentations patch
   modules as require() loads them, which is how their READMEs set them up. */
// A bot instrumented with OpenLLMetry's OpenAI instrumentation (@traceloop/instrumentation-openai,
// registered before `openai` is required, as its README shows). Each update's chat, user and feature are
// OpenLLMetry association properties (traceloop.association.properties.*; see tracing.cjs). The
// instrumentation traces chat completions (and completions, responses, images), not embeddings, so this
// bot makes no embeddings calls.
const { registerInstrumentations } = require('@opentelemetry/instrumentation');
const { OpenAIInstrumentation } = require('@traceloop/instrumentation-openai');
const { runScenario, settings } = require('./scenario.cjs');
const {
  AssociationPropertiesSpanProcessor,
  startTracing,
  withAssociationProperties,
} = require('./tracing.cjs');

const provider = startTracing('traceloop-openai-bot', [new AssociationPropertiesSpanProcessor()]);
registerInstrumentations({ instrumentations: [new OpenAIInstrumentation()] });

const { OpenAI } = require('openai');

const client = new OpenAI({ baseURL: `${settings().llmApiUrl}/v1`, apiKey: 'sk-stand-in', maxRetries: 0 });

const messages = (step) => [
  { role: 'system', content: step.system },
  { role: 'user', content: step.prompt },
];

async function main() {
  await runScenario({
    kinds: ['chat', 'stream'],
    withUpdate: withAssociationProperties,
    calls: {
      chat: (step) =>
        client.chat.completions.create(
          { model: 'gpt-4o-mini', messages: messages(step) },
          { headers: step.headers },
        ),
      stream: async (step) => {
        const stream = await client.chat.completions.create(
          {
            model: 'gpt-4o-mini',
            messages: messages(step),
            stream: true,
            stream_options: { include_usage: true },
          },
          { headers: step.headers },
        );
        for await (const chunk of stream) void chunk;
      },
    },
  });
  await provider.shutdown();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
