/* eslint-disable @typescript-eslint/no-require-imports -- CommonJS on purpose: the instrumentations patch
   modules as require() loads them, which is how their READMEs set them up. */
// A bot whose only instrumentation is the Anthropic SDK's own OpenTelemetry tracing (on by default once a
// tracer provider is registered; its README's "OpenTelemetry" section): one anthropic.messages.create span
// per call. Each update's chat is the call's conversation (the `openTelemetry.conversationId` request
// option, which sets gen_ai.conversation.id); its user and feature travel as W3C baggage entries
// (lumi.user_id, lumi.feature) that the BaggageSpanProcessor copies onto the span. This is what a bot on
// @anthropic-ai/sdk 1.x reports, where OpenLLMetry's Anthropic instrumentation cannot load.
const { context, propagation } = require('@opentelemetry/api');
const { BaggageSpanProcessor } = require('@opentelemetry/baggage-span-processor');
const { runScenario, settings } = require('./scenario.cjs');
const { startTracing } = require('./tracing.cjs');

const provider = startTracing('anthropic-sdk-bot', [
  new BaggageSpanProcessor((key) => key.startsWith('lumi.')),
]);

const { Anthropic } = require('@anthropic-ai/sdk');

const client = new Anthropic({ baseURL: settings().llmApiUrl, apiKey: 'sk-ant-stand-in', maxRetries: 0 });

const request = (step) => ({
  model: 'claude-3-5-haiku-latest',
  max_tokens: 256,
  system: step.system,
  messages: [{ role: 'user', content: step.prompt }],
});

let chatId;

function withUpdate(update, fn) {
  chatId = update.chat_id;
  const baggage = propagation.createBaggage({
    'lumi.user_id': { value: update.user_id },
    'lumi.feature': { value: update.feature },
  });
  return context.with(propagation.setBaggage(context.active(), baggage), fn);
}

const options = (step) => ({ headers: step.headers, openTelemetry: { conversationId: chatId } });

async function main() {
  await runScenario({
    kinds: ['chat', 'stream'],
    withUpdate,
    failStatus: (status) => (status === 500 ? 529 : status),
    calls: {
      chat: (step) => client.messages.create(request(step), options(step)),
      stream: async (step) => {
        const stream = await client.messages.create({ ...request(step), stream: true }, options(step));
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
