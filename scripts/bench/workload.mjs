// The ingestion benchmark's workload (scripts/bench.mjs): batches of llm_call events, as the demo bot sends them.
import { LLM_MODELS } from '../demo/simulated-bot.mjs';

const FEATURES = ['reply', 'reply', 'reply', 'summarize', 'digest', 'translate', null];
const ERROR_TYPES = ['timeout', 'rate_limit', 'server_error', null];

/** The per-call dimensions of call n: a chat and a user from long tails, a feature, an error type if it failed. */
function dimensions(n, success) {
  const tail = (count) => Math.floor(count * (((n * 2654435761) % 4294967296) / 4294967296) ** 3);
  const feature = FEATURES[n % FEATURES.length];
  const errorType = ERROR_TYPES[n % ERROR_TYPES.length];
  return {
    chat_id: String(500_000_000 + tail(5_000)),
    user_id: String(100_000_000 + tail(20_000)),
    ...(feature ? { feature } : {}),
    ...(!success && errorType ? { error_type: errorType } : {}),
  };
}

/** Made-up llm_call number `n` at `ts`, as the demo bot sends them. */
function llmCall(n, tag, ts) {
  const model = LLM_MODELS[n % LLM_MODELS.length];
  const input = 300 + ((n * 7919) % 2500);
  const output = 50 + ((n * 104729) % 600);
  const success = n % 67 !== 0;
  const event = {
    type: 'llm_call',
    id: `${tag}-${n}`,
    ts,
    provider: model.provider,
    model: model.model,
    input_tokens: input,
    output_tokens: output,
    latency_ms: 200 + (n % 1500),
    cached: n % 9 === 0,
    success,
    ...dimensions(n, success),
  };
  // As the demo bot does: Gemini calls are priced by the server, the others carry their cost.
  if (model.botCost) event.cost_usd = (input * model.botCost.input + output * model.botCost.output) / 1e6;
  return event;
}

/** Batches of llm_call events over the last 24 hours, serialised up front so the client costs little. */
export function ingestBodies(batches, batchSize, tag) {
  const now = Date.now();
  const bodies = [];
  let n = 0;
  for (let b = 0; b < batches; b += 1) {
    const events = [];
    for (let i = 0; i < batchSize; i += 1, n += 1) {
      const ts = new Date(now - 24 * 3600 * 1000 + (n / (batches * batchSize)) * 23 * 3600 * 1000);
      events.push(llmCall(n, tag, ts.toISOString()));
    }
    bodies.push(JSON.stringify({ events }));
  }
  return bodies;
}

/**
 * One batch of llm_call events as a live bot sends them: from the last minute, with their dimensions. For
 * the mixed run (dashboards read while ingestion runs); `batch` keeps ids apart.
 */
export function liveBody(batch, batchSize, tag) {
  const now = Date.now();
  const events = [];
  for (let i = 0; i < batchSize; i += 1) {
    const n = batch * batchSize + i;
    events.push(llmCall(n, tag, new Date(now - (n % 60_000)).toISOString()));
  }
  return JSON.stringify({ events });
}
