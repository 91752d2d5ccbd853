/* eslint-disable @typescript-eslint/no-require-imports -- CommonJS on purpose: the instrumentations patch
   modules as require() loads them, which is how their READMEs set them up. */
// A bot calling Gemini through Google's Gen AI SDK (@google/genai), instrumented with OpenLLMetry's
// instrumentation for it (@traceloop/instrumentation-google-generativeai, registered before the SDK is
// required, as its README shows; it supports @google/genai >=1 <2). Each update's chat, user and feature
// are OpenLLMetry association properties (traceloop.association.properties.*; see tracing.cjs). The
// instrumentation traces generateContent and generateContentStream, not embedContent, so this bot makes
// no embeddings calls. The SDK retries only when httpOptions.retryOptions is set, so it does not here.
const { registerInstrumentations } = require('@opentelemetry/instrumentation');
const { GenAIInstrumentation } = require('@traceloop/instrumentation-google-generativeai');
const { runScenario, settings } = require('./scenario.cjs');
const {
  AssociationPropertiesSpanProcessor,
  startTracing,
  withAssociationProperties,
} = require('./tracing.cjs');

const provider = startTracing('traceloop-google-genai-bot', [new AssociationPropertiesSpanProcessor()]);
registerInstrumentations({ instrumentations: [new GenAIInstrumentation()] });

const { GoogleGenAI } = require('@google/genai');

const ai = new GoogleGenAI({ apiKey: 'stand-in-key', httpOptions: { baseUrl: settings().llmApiUrl } });

const request = (step) => ({
  model: 'gemini-2.5-flash',
  contents: step.prompt,
  config: { systemInstruction: step.system, httpOptions: { headers: step.headers } },
});

async function main() {
  await runScenario({
    kinds: ['chat', 'stream'],
    withUpdate: withAssociationProperties,
    calls: {
      chat: (step) => ai.models.generateContent(request(step)),
      stream: async (step) => {
        for await (const chunk of await ai.models.generateContentStream(request(step))) void chunk;
      },
    },
  });
  await provider.shutdown();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
