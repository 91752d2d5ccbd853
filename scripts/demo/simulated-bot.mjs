// The demo's simulated bot: what an LLM-powered Telegram trading bot would report to Lumi Admin, made up
// here and sent only through the public ingestion API. Nothing in apps/ knows about it.
//
// Time is cut into 5-second slots and each slot's events come from a random generator seeded by the slot,
// with ids derived from it: a slot always yields the same events, so sending one twice (a retry, or the
// back-fill of a later demo run over hours already sent) only counts duplicates. The one exception is the
// live outage (planOutage): its slots yield nothing, and a later run's back-fill fills them in.
// The draws are in seeded-draws.mjs, the timeline (activity, incidents, the outage) in bot-timeline.mjs and
// the events besides LLM calls in service-events.mjs.

import { activity, incidentsAt, isDown, SLOT_MS, SLOTS_PER_MINUTE } from './bot-timeline.mjs';
import { between, integer, pick, poisson, seeded, weighted, zipfRank, zipfTable } from './seeded-draws.mjs';
import { integrationCalls, loggedErrors, statusReports } from './service-events.mjs';

/**
 * Who and what the LLM calls serve (docs/operators/metrics.md, "Usage by feature, chat and user"): a few hundred chats and users with a long
 * tail, as in a real bot (a handful of busy groups, many chats heard from now and then): each is drawn
 * with Zipf weights 1/rank^s. Ids are made up in Telegram's shapes: supergroups -100…, users positive.
 */
const CHAT_COUNT = 300;
const USER_COUNT = 450;
const ZIPF_EXPONENT = 1.1;
const CHAT_RANKS = zipfTable(CHAT_COUNT, ZIPF_EXPONENT);
const USER_RANKS = zipfTable(USER_COUNT, ZIPF_EXPONENT);

export const chatIdOf = (rank) => `-100${1_600_000_000 + rank * 7_919}`;
export const userIdOf = (rank) => String(40_000_000 + rank * 104_729);

/** The bot's names for its kinds of LLM work; embeddings serve search only. */
const FEATURES = [
  { feature: 'reply', share: 55 },
  { feature: 'summarize', share: 16 },
  { feature: 'digest', share: 12 },
  { feature: 'translate', share: 9 },
  { feature: 'moderate', share: 8 },
];
const ERROR_TYPES = [
  { error_type: 'timeout', share: 45 },
  { error_type: 'rate_limited', share: 25 },
  { error_type: 'server_error', share: 20 },
  { error_type: 'content_filter', share: 10 },
];

const perMillion = (input, output) => ({ input_usd_per_million: input, output_usd_per_million: output });
/** A model, its share of the calls, and its ranges of input tokens, output tokens and latency (ms). */
const model = (provider, name, share, input, output, latency, how) => ({
  provider,
  model: name,
  share,
  input,
  output,
  latency,
  ...how,
});

/**
 * Models the bot calls. Gemini calls are sent without cost_usd, so the server prices them from its model
 * price table (which the demo fills through the API); the others carry the cost the bot computed.
 */
export const LLM_MODELS = [
  model('gemini', 'gemini-1.5-flash', 42, [400, 1400], [80, 400], [350, 900], {
    price: perMillion(0.075, 0.3),
  }),
  model('gemini', 'gemini-1.5-pro', 18, [900, 3200], [200, 900], [1200, 3500], {
    price: perMillion(1.25, 5),
  }),
  model('gemini', 'gemini-pro-vision', 7, [1500, 4000], [60, 300], [1800, 4200], {
    price: perMillion(0.5, 1.5),
  }),
  model('gemini', 'text-embedding-004', 18, [100, 600], [0, 0], [60, 180], { price: perMillion(0.025, 0) }),
  // These parts of the bot are instrumented with OpenTelemetry: their calls reach Lumi as OTLP spans.
  model('openai', 'gpt-4o-mini', 10, [500, 1800], [100, 500], [500, 1600], {
    otlp: 'protobuf',
    botCost: { input: 0.15, output: 0.6 },
  }),
  model('anthropic', 'claude-3-5-haiku', 5, [600, 2000], [150, 600], [700, 1900], {
    otlp: 'json',
    botCost: { input: 0.8, output: 4 },
  }),
];

/** Daily budgets the demo creates through the API at its first run (sized to end a day near half used). */
export const DEMO_BUDGETS = {
  gemini: { daily_token_limit: 25_000_000, is_active: true },
  openai: { daily_cost_limit: 1, is_active: true },
};

function llmCall(random, slot, i, ts, incident) {
  const model = weighted(random, LLM_MODELS);
  const failRate = incident.gemini && model.provider === 'gemini' ? 0.3 : 0.015;
  const success = random() >= failRate;
  const cached = success && random() < 0.12;
  const input = success ? integer(random, model.input) : 0;
  const output = success ? integer(random, model.output) : 0;
  const slow = incident.gemini && model.provider === 'gemini' ? 2.5 : 1;
  const latency = success
    ? between(random, model.latency) * (cached ? 0.35 : 1) * slow
    : between(random, [8000, 30000]);
  const event = {
    type: 'llm_call',
    id: `llm:${slot}:${i}`,
    ts,
    provider: model.provider,
    model: model.model,
    input_tokens: input,
    output_tokens: output,
    latency_ms: Math.round(latency),
    cached,
    success,
  };
  if (model.botCost) {
    event.cost_usd = (input * model.botCost.input + output * model.botCost.output) / 1_000_000;
  }
  // The dimensions come from a generator of their own, so the slot's other events stay as they were.
  const dims = seeded(`llm-dimensions:${slot}:${i}`);
  const user = zipfRank(USER_RANKS, dims());
  // Two calls in five come from private chats, whose id is the user's.
  event.chat_id = dims() < 0.4 ? userIdOf(user) : chatIdOf(zipfRank(CHAT_RANKS, dims()));
  event.user_id = userIdOf(user);
  event.feature = model.output[1] === 0 ? 'search' : weighted(dims, FEATURES).feature;
  if (!success) {
    event.error_type =
      incident.gemini && model.provider === 'gemini' ? 'overloaded' : weighted(dims, ERROR_TYPES).error_type;
  }
  return event;
}

/**
 * How an event reaches Lumi: 'protobuf' or 'json' for the calls of the models whose client is instrumented
 * with OpenTelemetry (sent as OTLP spans in that encoding), null for the rest (the JSON ingestion API).
 */
export function otlpEncodingOf(event) {
  if (event.type !== 'llm_call') return null;
  return LLM_MODELS.find((m) => m.provider === event.provider && m.model === event.model)?.otlp ?? null;
}

/**
 * The events of one 5-second slot, ordered by time. Same slot, same events; none while the bot is down
 * (`outage`, from planOutage).
 */
export function eventsOfSlot(slot, { quietAfter = Infinity, outage } = {}) {
  if (isDown(slot, outage)) return [];
  const start = slot * SLOT_MS;
  const random = seeded(`slot:${slot}`);
  const busy = activity(start);
  const incident = incidentsAt(start, quietAfter);
  const at = () => new Date(start + Math.floor(random() * SLOT_MS)).toISOString();
  const events = [];

  // About 12 LLM calls a minute at the busiest hour.
  const llmCount = poisson(random, busy * (12 / SLOTS_PER_MINUTE));
  for (let i = 0; i < llmCount; i += 1) events.push(llmCall(random, slot, i, at(), incident));
  events.push(...integrationCalls(random, slot, busy, at, incident));
  events.push(...loggedErrors(random, slot, busy, at, incident));
  events.push(...statusReports(random, slot, busy, incident, outage));
  return events.sort((a, b) => (a.ts < b.ts ? -1 : a.ts > b.ts ? 1 : 0));
}

/**
 * The messages the bot asks Lumi to send (POST /api/v1/messaging/deliveries) in a slot, through the
 * templates the demo seeds (demo/seed-messaging.mjs): a price alert every other slot (10 s), and the pinned
 * market dashboard once a minute; none while the bot is down (`outage`). The idempotency key is the
 * slot's, so sending a slot again (a retry, or a demo restarted within the day) queues nothing twice.
 */
export function deliveriesOfSlot(slot, { outage } = {}) {
  if (isDown(slot, outage)) return [];
  const random = seeded(`deliveries:${slot}`);
  const token = pick(random, [
    { token_name: 'Jupiter', token_symbol: 'JUP', price: [0.6, 1.4] },
    { token_name: 'Bonk', token_symbol: 'BONK', price: [0.00001, 0.00004] },
    { token_name: 'dogwifhat', token_symbol: 'WIF', price: [1.5, 3.5] },
  ]);
  const data = {
    token_name: token.token_name,
    token_symbol: token.token_symbol,
    price_usd: Number(between(random, token.price).toPrecision(4)),
    price_change_24h: Math.round(between(random, [-18, 18]) * 10) / 10,
    volume_24h: integer(random, [2_000_000, 90_000_000]),
    market_cap: integer(random, [300_000_000, 2_500_000_000]),
    holders: integer(random, [80_000, 900_000]),
    timestamp: new Date(slot * SLOT_MS).toISOString(),
  };
  const deliveries = [];
  if (slot % 2 === 0)
    deliveries.push({ template_name: 'Price alert', data, idempotency_key: `demo-alert:${slot}` });
  if (slot % SLOTS_PER_MINUTE === 0)
    deliveries.push({ template_name: 'Market dashboard', data, idempotency_key: `demo-dashboard:${slot}` });
  return deliveries;
}
