// The simulated bot's events besides its LLM calls (simulated-bot.mjs): its calls to the services it
// depends on, the errors it logs, and its status reports (heartbeat, market data feed, cache). Each
// function draws from the slot's generator in turn, so a slot always yields the same events.
import { between, pick, poisson } from './seeded-draws.mjs';
import {
  MINUTE_MS,
  REPORT_EVERY_SLOTS,
  SLOT_MS,
  SLOTS_PER_MINUTE,
  isLoggedErrorSlot,
  startedAt,
} from './bot-timeline.mjs';

/**
 * The services the bot calls. Outside an incident a call fails rarely, so each stays above the 99 % the
 * integrations panel shows as green (apps/web/src/features/metrics/lib/thresholds.ts), even when a short
 * history (DEMO_HISTORY_HOURS=1) gives its 24-hour window only an hour of calls. `telegram` also counts
 * Lumi's own sends, which the demo's fake Bot API fails now and then (demo/bot-api-failures.mjs).
 */
const TELEGRAM_ERRORS = ['Telegram 429: Too Many Requests: retry after 3', 'Telegram 502: Bad Gateway'];
const INTEGRATIONS = [
  // service, calls a minute, share of calls that succeed, share answered from a cache (status "other"),
  // latency range in ms, the errors a failed call reports. `telegram` is the bot's own Bot API calls: a
  // sendMessage for each reply, and edits, callback answers, chat lookups.
  ['telegram', 20, 0.999, 0, [80, 300], TELEGRAM_ERRORS],
  ['birdeye', 5, 0.999, 0.0005, [150, 600], ['HTTP 502 Bad Gateway', 'timeout after 10000 ms']],
  ['dexscreener', 4, 0.9995, 0, [120, 450], ['HTTP 503 Service Unavailable']],
  ['coingecko', 2, 0.9995, 0, [200, 900], ['HTTP 429 Too Many Requests', 'HTTP 500 Internal Server Error']],
].map(([service, perMinute, success, other, latency, errors]) => ({
  service,
  perMinute,
  success,
  other,
  latency,
  errors,
}));

const ERROR_SOURCES = [
  { source: 'telegram', messages: ['Message to chat -100183… failed: bot was blocked by the user'] },
  { source: 'birdeye', messages: ['Price request for SOL/USDC failed after 3 retries'] },
  { source: 'scheduler', messages: ['Job portfolio-snapshot overran its 60 s slot'] },
  { source: 'llm', messages: ['Gemini answer was not valid JSON; asked again'] },
];

function integrationCall(random, integration, slot, i, ts, incident) {
  const success = incident.birdeye && integration.service === 'birdeye' ? 0.6 : integration.success;
  const roll = random();
  const status = roll < success ? 'success' : roll < success + integration.other ? 'other' : 'error';
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

/** The slot's calls to each service, as many as `busy` makes likely; `at()` draws a time in the slot. */
export function integrationCalls(random, slot, busy, at, incident) {
  const events = [];
  let n = 0;
  for (const integration of INTEGRATIONS) {
    const count = poisson(random, busy * (integration.perMinute / SLOTS_PER_MINUTE));
    for (let i = 0; i < count; i += 1) {
      events.push(integrationCall(random, integration, slot, n, at(), incident));
      n += 1;
    }
  }
  return events;
}

/** The slot's logged errors: by the dozen in an incident, else only in the slot drawn for one. */
export function loggedErrors(random, slot, busy, at, incident) {
  const incidentErrorRate = (incident.gemini ? 1.5 : 0) + (incident.birdeye ? 1 : 0);
  const errorCount =
    poisson(random, (busy * incidentErrorRate) / SLOTS_PER_MINUTE) + (isLoggedErrorSlot(slot) ? 1 : 0);
  const events = [];
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
  return events;
}

/**
 * The slot's status report, if it is due: the heartbeat, the market data feed and the cache statistics
 * each come once in REPORT_EVERY_SLOTS slots, staggered. The feed lags in an incident (`incident.feed`);
 * the heartbeat tells the latest restart, also the one after the live `outage`.
 */
export function statusReports(random, slot, busy, incident, outage) {
  const start = slot * SLOT_MS;
  const phase = slot % REPORT_EVERY_SLOTS;
  const ts = new Date(start + 1000 + Math.floor(random() * 3000)).toISOString();
  const events = [];
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
  return events;
}
