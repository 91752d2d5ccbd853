/* eslint-disable @typescript-eslint/no-require-imports -- CommonJS, as the bots that require it (they are
   CommonJS so that their instrumentations patch the clients as require() loads them). */
// The fixed scenario every instrumented bot runs against the LLM API stand-in
// (packages/test-support/src/llm-api-stand-in.js): the steps of scenario.json in order, each inside the
// bot's Telegram update (chat, user, feature) as its instrumentation lets a bot carry them. The headers
// are the stand-in's conventions for a failure and for cached input tokens.
const plan = require('./scenario.json');

const FAIL_HEADER = 'x-stand-in-fail';
const CACHE_READ_HEADER = 'x-stand-in-cache-read';
const CACHE_WRITE_HEADER = 'x-stand-in-cache-write';

/** The stand-in's origin, Lumi's OTLP endpoint and the bot's API key, from the environment. */
function settings() {
  const { LLM_API_URL, LUMI_OTLP_URL, LUMI_API_KEY } = process.env;
  if (!LLM_API_URL || !LUMI_OTLP_URL || !LUMI_API_KEY) {
    throw new Error('Set LLM_API_URL (the stand-in), LUMI_OTLP_URL and LUMI_API_KEY');
  }
  return { llmApiUrl: LLM_API_URL, otlpUrl: LUMI_OTLP_URL, apiKey: LUMI_API_KEY };
}

/** The steps of `kinds` ("chat", "stream", "embed"), in order: what a bot of those kinds sends. */
function stepsOf(kinds) {
  return plan.steps.filter((step) => kinds.includes(step.kind));
}

/**
 * Runs the steps of `kinds`: `calls[step.kind](step)` inside `withUpdate(update, …)`. A step gets its
 * `headers` (the failure a step asks for, as `failStatus` maps it, and its cached tokens) and the
 * system prompt; a failure it asked for is expected, any other ends the bot.
 */
async function runScenario({ kinds, withUpdate, calls, failStatus = (status) => status }) {
  for (const step of stepsOf(kinds)) {
    const headers = {};
    if (step.fail) headers[FAIL_HEADER] = String(failStatus(step.fail));
    if (step.cacheRead) headers[CACHE_READ_HEADER] = String(step.cacheRead);
    if (step.cacheWrite) headers[CACHE_WRITE_HEADER] = String(step.cacheWrite);
    const update = plan.updates[step.update];
    await withUpdate(update, async () => {
      try {
        await calls[step.kind]({ ...step, headers, system: plan.systemPrompt });
        if (step.fail) throw new Error(`Step "${step.prompt}" should have failed with ${step.fail}`);
      } catch (error) {
        if (!step.fail || String(error.message).startsWith('Step ')) throw error;
      }
    });
  }
}

module.exports = { plan, settings, stepsOf, runScenario };
