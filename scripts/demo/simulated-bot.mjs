// The demo's simulated bot: what an LLM-powered Telegram trading bot would report to Lumi Admin, made up
// here and sent only through the public ingestion API. Nothing in apps/ knows about it.
//
// Time is cut into 5-second slots and each slot's events come from a random generator seeded by the slot,
// with ids derived from it: a slot always yields the same events, so sending one twice (a retry, or the
// back-fill of a later demo run over hours already sent) only counts duplicates. The one exception is the
// live outage (planOutage): its slots yield nothing, and a later run's back-fill fills them in.

import { seededRandom } from '@lumi/test-support/seeded-random';

export const SLOT_MS = 5000;
const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;
const SLOTS_PER_MINUTE = MINUTE_MS / SLOT_MS;
/** The heartbeat, market data and cache reports each come once in this many slots (30 s), staggered. */
const REPORT_EVERY_SLOTS = 6;

/** FNV-1a of a text: the seed of a slot, an hour or a day. */
function hash(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

const seeded = (name) => seededRandom(hash(`lumi-demo:${name}`));
const between = (random, [low, high]) => low + (high - low) * random();
const integer = (random, range) => Math.round(between(random, range));
const pick = (random, items) => items[Math.floor(random() * items.length)];

/** Poisson-distributed count with mean `mean` (Knuth; the means here are small). */
function poisson(random, mean) {
  const limit = Math.exp(-mean);
  let count = 0;
  let product = random();
  while (product > limit) {
    count += 1;
    product *= random();
  }
  return count;
}

/** Draws an entry by its `share`. */
function weighted(random, entries) {
  let roll = random() * entries.reduce((sum, e) => sum + e.share, 0);
  for (const entry of entries) {
    roll -= entry.share;
    if (roll < 0) return entry;
  }
  return entries.at(-1);
}

/**
 * How busy the bot is: a daily rhythm (quiet around 04:00 UTC, busiest around 16:00), calmer weekends,
 * and each hour a little above or below the curve.
 */
export function activity(ms) {
  const date = new Date(ms);
  const hour = date.getUTCHours() + date.getUTCMinutes() / 60;
  const daily = 0.3 + 0.7 * (0.5 - 0.5 * Math.cos((2 * Math.PI * (hour - 4)) / 24));
  const weekend = [0, 6].includes(date.getUTCDay()) ? 0.75 : 1;
  const noise = 0.85 + 0.3 * seeded(`hour:${Math.floor(ms / HOUR_MS)}`)();
  return daily * weekend * noise;
}

/**
 * Who and what the LLM calls serve (docs/operators/metrics.md, "Usage by feature, chat and user"): a few hundred chats and users with a long
 * tail, as in a real bot (a handful of busy groups, many chats heard from now and then): each is drawn
 * with Zipf weights 1/rank^s. Ids are made up in Telegram's shapes: supergroups -100…, users positive.
 */
const CHAT_COUNT = 300;
const USER_COUNT = 450;
const ZIPF_EXPONENT = 1.1;

/** The cumulative Zipf weights of ranks 1..n, for drawing a rank with one random number. */
function zipfTable(n) {
  const weights = Array.from({ length: n }, (_, rank) => 1 / (rank + 1) ** ZIPF_EXPONENT);
  const total = weights.reduce((sum, w) => sum + w, 0);
  let sum = 0;
  return weights.map((w) => (sum += w / total));
}
const CHAT_RANKS = zipfTable(CHAT_COUNT);
const USER_RANKS = zipfTable(USER_COUNT);

/** The rank (0-based) whose cumulative weight first reaches `roll`. */
function zipfRank(table, roll) {
  let low = 0;
  let high = table.length - 1;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (table[mid] < roll) low = mid + 1;
    else high = mid;
  }
  return low;
}

const chatIdOf = (rank) => `-100${1_600_000_000 + rank * 7_919}`;
const userIdOf = (rank) => String(40_000_000 + rank * 104_729);

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

/**
 * Models the bot calls. Gemini calls are sent without cost_usd, so the server prices them from its model
 * price table (which the demo fills through the API); the others carry the cost the bot computed.
 */
export const LLM_MODELS = [
  {
    provider: 'gemini',
    model: 'gemini-1.5-flash',
    share: 42,
    input: [400, 1400],
    output: [80, 400],
    latency: [350, 900],
    price: { input_usd_per_million: 0.075, output_usd_per_million: 0.3 },
  },
  {
    provider: 'gemini',
    model: 'gemini-1.5-pro',
    share: 18,
    input: [900, 3200],
    output: [200, 900],
    latency: [1200, 3500],
    price: { input_usd_per_million: 1.25, output_usd_per_million: 5 },
  },
  {
    provider: 'gemini',
    model: 'gemini-pro-vision',
    share: 7,
    input: [1500, 4000],
    output: [60, 300],
    latency: [1800, 4200],
    price: { input_usd_per_million: 0.5, output_usd_per_million: 1.5 },
  },
  {
    provider: 'gemini',
    model: 'text-embedding-004',
    share: 18,
    input: [100, 600],
    output: [0, 0],
    latency: [60, 180],
    price: { input_usd_per_million: 0.025, output_usd_per_million: 0 },
  },
  {
    provider: 'openai',
    model: 'gpt-4o-mini',
    share: 10,
    // This part of the bot is instrumented with OpenTelemetry: its calls reach Lumi as OTLP spans.
    otlp: 'protobuf',
    input: [500, 1800],
    output: [100, 500],
    latency: [500, 1600],
    botCost: { input: 0.15, output: 0.6 },
  },
  {
    provider: 'anthropic',
    model: 'claude-3-5-haiku',
    share: 5,
    otlp: 'json',
    input: [600, 2000],
    output: [150, 600],
    latency: [700, 1900],
    botCost: { input: 0.8, output: 4 },
  },
];

/** Daily budgets the demo creates through the API at its first run (sized to end a day near half used). */
export const DEMO_BUDGETS = {
  gemini: { daily_token_limit: 25_000_000, is_active: true },
  openai: { daily_cost_limit: 1, is_active: true },
};

/**
 * The services the bot calls. Outside an incident a call fails rarely, so each stays above the 99 % the
 * integrations panel shows as green (apps/web/src/features/metrics/lib/thresholds.ts), even when a short
 * history (DEMO_HISTORY_HOURS=1) gives its 24-hour window only an hour of calls. `telegram` also counts
 * Lumi's own sends, which the demo's fake Bot API fails now and then (demo/bot-api-failures.mjs).
 */
const INTEGRATIONS = [
  {
    // The bot's own Bot API calls: a sendMessage for each reply, and edits, callback answers, chat lookups.
    service: 'telegram',
    perMinute: 20,
    success: 0.999,
    latency: [80, 300],
    errors: ['Telegram 429: Too Many Requests: retry after 3', 'Telegram 502: Bad Gateway'],
  },
  {
    service: 'birdeye',
    perMinute: 5,
    success: 0.999,
    other: 0.0005,
    latency: [150, 600],
    errors: ['HTTP 502 Bad Gateway', 'timeout after 10000 ms'],
  },
  {
    service: 'dexscreener',
    perMinute: 4,
    success: 0.9995,
    latency: [120, 450],
    errors: ['HTTP 503 Service Unavailable'],
  },
  {
    service: 'coingecko',
    perMinute: 2,
    success: 0.9995,
    latency: [200, 900],
    errors: ['HTTP 429 Too Many Requests', 'HTTP 500 Internal Server Error'],
  },
];

const ERROR_SOURCES = [
  { source: 'telegram', messages: ['Message to chat -100183… failed: bot was blocked by the user'] },
  { source: 'birdeye', messages: ['Price request for SOL/USDC failed after 3 retries'] },
  { source: 'scheduler', messages: ['Job portfolio-snapshot overran its 60 s slot'] },
  { source: 'llm', messages: ['Gemini answer was not valid JSON; asked again'] },
];

/**
 * The errors the bot logs outside an incident: one in each 4 hours, in a slot drawn for it. Any 24 hours
 * then hold 5 to 7, below the 10 in 24 hours a healthy bot stays under (spec section 9, isBotHealthy in
 * apps/web/src/features/metrics/lib/thresholds.ts).
 */
const ERROR_PERIOD_SLOTS = (4 * HOUR_MS) / SLOT_MS;
function isLoggedErrorSlot(slot) {
  const period = Math.floor(slot / ERROR_PERIOD_SLOTS);
  const drawn = Math.floor(seeded(`logged-error:${period}`)() * ERROR_PERIOD_SLOTS);
  return slot === period * ERROR_PERIOD_SLOTS + drawn;
}

/**
 * Incidents, a few a week at fixed times: Gemini overloaded (more failed calls, slower), a Birdeye outage,
 * and the market data websocket dropping for a while; the first two log errors by the dozen. None falls
 * in the `quietAfter` period, so the console opens on a healthy bot.
 */
function incidentsAt(ms, quietAfter) {
  if (ms >= quietAfter) return { gemini: false, birdeye: false, feed: null };
  const day = Math.floor(ms / DAY_MS);
  const random = seeded(`incidents:${day}`);
  const window = (startHour, minutes) => {
    const start = day * DAY_MS + startHour * HOUR_MS;
    return ms >= start && ms < start + minutes * MINUTE_MS ? start : null;
  };
  const geminiDay = random() < 0.5;
  const geminiHour = integer(random, [8, 20]);
  const birdeyeDay = random() < 0.4;
  const birdeyeHour = integer(random, [0, 22]);
  const feedDay = random() < 0.35;
  const feedHour = integer(random, [0, 22]);
  return {
    gemini: geminiDay && window(geminiHour, 45) !== null,
    birdeye: birdeyeDay && window(birdeyeHour, 30) !== null,
    feed: feedDay ? window(feedHour, 20) : null,
  };
}

/**
 * How far back from its start the demo's history has no incident: the Overview judges the last 24 whole
 * hours (errors, integrations, cache), so it opens on "All systems operational", with an hour to spare;
 * the incidents show in the days before (the Metrics screens' 7 days).
 */
export const QUIET_MS = 25 * HOUR_MS;

/** How long after the demo goes live its bot goes down, and for how long (planOutage). */
export const OUTAGE_AFTER_MS = 2 * MINUTE_MS;
export const OUTAGE_MS = 3 * MINUTE_MS;

/**
 * The live incident (the demo's bot heartbeat alert fires; docs/demo.md): a deploy that hangs, so the bot
 * reports nothing and sends nothing from `from` to `to` (slots), then restarts. It begins in the first
 * slot after a heartbeat at least OUTAGE_AFTER_MS past `ms` and ends on a heartbeat slot, so no heartbeat
 * comes for the whole span of about OUTAGE_MS; a heartbeat rule of 90 s then fires in its second minute.
 */
export function planOutage(ms) {
  const earliest = slotOf(ms + OUTAGE_AFTER_MS);
  const from = earliest + ((REPORT_EVERY_SLOTS + 1 - (earliest % REPORT_EVERY_SLOTS)) % REPORT_EVERY_SLOTS);
  // OUTAGE_MS is a whole number of report periods, so `to`, one slot short of it, is a heartbeat slot.
  return { from, to: from + OUTAGE_MS / SLOT_MS - 1 };
}

const down = (slot, outage) => outage !== undefined && slot >= outage.from && slot < outage.to;

/**
 * The bot restarts (a deploy) every 53 hours, and once more at the end of an outage; heartbeats report
 * the time of the latest restart.
 */
const RESTART_EVERY_MS = 53 * HOUR_MS;
function startedAt(ms, outage) {
  const deploy = Math.floor(ms / RESTART_EVERY_MS) * RESTART_EVERY_MS + 7000;
  const restart = outage && ms >= outage.to * SLOT_MS ? outage.to * SLOT_MS : 0;
  return new Date(Math.max(deploy, restart)).toISOString();
}

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

function integrationCall(random, integration, slot, i, ts, incident) {
  const success = incident.birdeye && integration.service === 'birdeye' ? 0.6 : integration.success;
  const roll = random();
  const status = roll < success ? 'success' : roll < success + (integration.other ?? 0) ? 'other' : 'error';
  const event = {
    type: 'integration_call',
    id: `int:${slot}:${i}`,
    ts,
    service_name: integration.service,
    status,
    latency_ms: Math.round(between(random, integration.latency) * (status === 'error' ? 3 : 1)),
  };
  if (status === 'error') event.error = pick(random, integration.errors);
  if (status === 'other') event.error = 'rate limited; served the cached price';
  return event;
}

/**
 * The events of one 5-second slot, ordered by time. Same slot, same events; none while the bot is down
 * (`outage`, from planOutage).
 */
export function eventsOfSlot(slot, { quietAfter = Infinity, outage } = {}) {
  if (down(slot, outage)) return [];
  const start = slot * SLOT_MS;
  const random = seeded(`slot:${slot}`);
  const busy = activity(start);
  const incident = incidentsAt(start, quietAfter);
  const at = () => new Date(start + Math.floor(random() * SLOT_MS)).toISOString();
  const events = [];

  // About 12 LLM calls a minute at the busiest hour.
  const llmCount = poisson(random, busy * (12 / SLOTS_PER_MINUTE));
  for (let i = 0; i < llmCount; i += 1) events.push(llmCall(random, slot, i, at(), incident));

  let n = 0;
  for (const integration of INTEGRATIONS) {
    const count = poisson(random, busy * (integration.perMinute / SLOTS_PER_MINUTE));
    for (let i = 0; i < count; i += 1) {
      events.push(integrationCall(random, integration, slot, n, at(), incident));
      n += 1;
    }
  }

  const incidentErrorRate = (incident.gemini ? 1.5 : 0) + (incident.birdeye ? 1 : 0);
  const errorCount =
    poisson(random, (busy * incidentErrorRate) / SLOTS_PER_MINUTE) + (isLoggedErrorSlot(slot) ? 1 : 0);
  for (let i = 0; i < errorCount; i += 1) {
    const kind = incident.gemini
      ? { source: 'llm', messages: ['Gemini 503: The model is overloaded. Please try again later.'] }
      : incident.birdeye
        ? { source: 'birdeye', messages: ['Birdeye API unreachable: ECONNRESET'] }
        : pick(random, ERROR_SOURCES);
    events.push({
      type: 'error',
      id: `err:${slot}:${i}`,
      ts: at(),
      source: kind.source,
      message: pick(random, kind.messages),
    });
  }

  const phase = slot % REPORT_EVERY_SLOTS;
  const ts = new Date(start + 1000 + Math.floor(random() * 3000)).toISOString();
  if (phase === 0) {
    const locks = [
      {
        name: 'market-sync',
        holder: 'worker-1',
        since: new Date(Math.floor(start / MINUTE_MS) * MINUTE_MS).toISOString(),
      },
    ];
    if (random() < 0.3)
      locks.push({
        name: 'telegram-poller',
        holder: 'worker-2',
        since: new Date(start - 20_000).toISOString(),
      });
    events.push({
      type: 'heartbeat',
      id: `hb:${slot}`,
      ts,
      telegram_status: 'connected',
      started_at: startedAt(start, outage),
      active_locks: locks,
    });
  }
  if (phase === 1) {
    const feed = incident.feed;
    const lastCandle = Math.floor(((feed ?? start) - MINUTE_MS) / MINUTE_MS) * MINUTE_MS;
    events.push({
      type: 'market_data',
      id: `md:${slot}`,
      ts,
      last_candle_time: new Date(lastCandle).toISOString(),
      websocket_status: feed ? 'reconnecting' : 'connected',
      missing_intervals: feed ? Math.floor((start - feed) / MINUTE_MS) : 0,
    });
  }
  if (phase === 3) {
    const lookups = poisson(random, busy * 90);
    // Above the 80 % hit rate the cache panel shows as good (thresholds.ts).
    const hits = Math.round(lookups * between(random, [0.79, 0.91]));
    const entries = Math.round(900 + 600 * busy + 50 * random());
    events.push({
      type: 'cache_stats',
      id: `cache:${slot}`,
      ts,
      hits,
      misses: lookups - hits,
      entries,
      avg_response_time_cached_ms: Math.round(between(random, [2, 6]) * 10) / 10,
      avg_response_time_uncached_ms: Math.round(between(random, [250, 700])),
    });
  }
  return events.sort((a, b) => (a.ts < b.ts ? -1 : a.ts > b.ts ? 1 : 0));
}

export const slotOf = (ms) => Math.floor(ms / SLOT_MS);

/**
 * The messages the bot asks Lumi to send (POST /api/v1/messaging/deliveries) in a slot, through the
 * templates the demo seeds (demo/seed-content.mjs): a price alert every other slot (10 s), and the pinned
 * market dashboard once a minute; none while the bot is down (`outage`). The idempotency key is the
 * slot's, so sending a slot again (a retry, or a demo restarted within the day) queues nothing twice.
 */
export function deliveriesOfSlot(slot, { outage } = {}) {
  if (down(slot, outage)) return [];
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
