/* eslint-disable @typescript-eslint/no-require-imports -- CommonJS on purpose: the instrumentations patch
   modules as require() loads them, which is how their READMEs set them up. */
// A bot instrumented with OpenTelemetry's own OpenAI instrumentation (@opentelemetry/instrumentation-openai,
// registered before `openai` is required, as its README shows). The chat, user and feature of each update
// travel as W3C baggage entries (lumi.chat_id, lumi.user_id, lumi.feature) that the BaggageSpanProcessor
// copies onto every span, as docs/bot-developers/otlp.md recommends.
const { context, propagation } = require('@opentelemetry/api');
const { BaggageSpanProcessor } = require('@opentelemetry/baggage-span-processor');
const { registerInstrumentations } = require('@opentelemetry/instrumentation');
const { OpenAIInstrumentation } = require('@opentelemetry/instrumentation-openai');
const { runScenario, settings } = require('./scenario.cjs');
const { startTracing } = require('./tracing.cjs');

const provider = startTracing('otel-openai-bot', [
  new BaggageSpanProcessor((key) => key.startsWith('lumi.')),
]);
registerInstrumentations({ instrumentations: [new OpenAIInstrumentation()] });

const { OpenAI } = require('openai');

const client = new OpenAI({ baseURL: `${settings().llmApiUrl}/v1`, apiKey: 'sk-stand-in', maxRetries: 0 });

const messages = (step) => [
  { role: 'system', content: step.system },
  { role: 'user', content: step.prompt },
];

function withUpdate(update, fn) {
  const baggage = propagation.createBaggage({
    'lumi.chat_id': { value: update.chat_id },
    'lumi.user_id': { value: update.user_id },
    'lumi.feature': { value: update.feature },
  });
  return context.with(propagation.setBaggage(context.active(), baggage), fn);
}

async function main() {
  await runScenario({
    kinds: ['chat', 'stream', 'embed'],
    withUpdate,
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
      embed: (step) =>
        client.embeddings.create(
          { model: 'text-embedding-3-small', input: step.input, dimensions: 8 },
          { headers: step.headers },
        ),
    },
  });
  await provider.shutdown();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
