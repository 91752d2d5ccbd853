/* eslint-disable @typescript-eslint/no-require-imports -- CommonJS on purpose: the instrumentations patch
   modules as require() loads them, which is how their READMEs set them up. */
// A bot instrumented with OpenInference's OpenAI instrumentation (@arizeai/openinference-instrumentation-openai,
// registered before `openai` is required, as its README shows). Each update's chat is the OpenInference
// session and its user the user (setSession, setUser of @arizeai/openinference-core); the feature goes in
// the metadata (setMetadata), which OpenInference writes on the span as a JSON object.
const { context } = require('@opentelemetry/api');
const { setMetadata, setSession, setUser } = require('@arizeai/openinference-core');
const { OpenAIInstrumentation } = require('@arizeai/openinference-instrumentation-openai');
const { registerInstrumentations } = require('@opentelemetry/instrumentation');
const { runScenario, settings } = require('./scenario.cjs');
const { startTracing } = require('./tracing.cjs');

const provider = startTracing('openinference-openai-bot');
registerInstrumentations({ instrumentations: [new OpenAIInstrumentation()] });

const { OpenAI } = require('openai');

const client = new OpenAI({ baseURL: `${settings().llmApiUrl}/v1`, apiKey: 'sk-stand-in', maxRetries: 0 });

const messages = (step) => [
  { role: 'system', content: step.system },
  { role: 'user', content: step.prompt },
];

function withUpdate(update, fn) {
  let ctx = setSession(context.active(), { sessionId: update.chat_id });
  ctx = setUser(ctx, { userId: update.user_id });
  ctx = setMetadata(ctx, { feature: update.feature });
  return context.with(ctx, fn);
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
