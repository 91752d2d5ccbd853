// A bot on the Vercel AI SDK (`ai` with @ai-sdk/openai), whose own OpenTelemetry spans are switched on per
// call with experimental_telemetry (https://ai-sdk.dev/docs/ai-sdk-core/telemetry): the AI SDK records
// with the globally registered tracer provider. Each update's chat, user and feature are telemetry
// metadata (ai.telemetry.metadata.*), and the feature is also the functionId. `openai(model)` calls the
// Responses API, the provider's default; embeddings go through openai.embedding().
import { createRequire } from 'node:module';
import { createOpenAI } from '@ai-sdk/openai';
import { embedMany, generateText, streamText } from 'ai';

const require = createRequire(import.meta.url);
const { runScenario, settings } = require('./scenario.cjs');
const { startTracing } = require('./tracing.cjs');

const provider = startTracing('ai-sdk-bot');
const openai = createOpenAI({ baseURL: `${settings().llmApiUrl}/v1`, apiKey: 'sk-stand-in' });

/** The update of the call being made: experimental_telemetry is an option of each call. */
let current;
const telemetry = () => ({
  isEnabled: true,
  functionId: current.feature,
  metadata: { chat_id: current.chat_id, user_id: current.user_id, feature: current.feature },
});

async function withUpdate(update, fn) {
  current = update;
  try {
    return await fn();
  } finally {
    current = undefined;
  }
}

await runScenario({
  kinds: ['chat', 'stream', 'embed'],
  withUpdate,
  calls: {
    chat: (step) =>
      generateText({
        model: openai('gpt-4o-mini'),
        system: step.system,
        prompt: step.prompt,
        headers: step.headers,
        maxRetries: 0,
        experimental_telemetry: telemetry(),
      }),
    stream: async (step) => {
      const result = streamText({
        model: openai('gpt-4o-mini'),
        system: step.system,
        prompt: step.prompt,
        headers: step.headers,
        maxRetries: 0,
        experimental_telemetry: telemetry(),
      });
      for await (const text of result.textStream) void text;
    },
    embed: (step) =>
      embedMany({
        model: openai.embedding('text-embedding-3-small'),
        values: step.input,
        headers: step.headers,
        maxRetries: 0,
        providerOptions: { openai: { dimensions: 8 } },
        experimental_telemetry: telemetry(),
      }),
  },
});
await provider.shutdown();
