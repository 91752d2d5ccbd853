// Part `calls` of `npm run bench` (scripts/bench.mjs), run with part `dashboards` on its loaded database:
// the first page of GET /api/metrics/llm/calls (docs/operators/metrics.md, "Calls") with each filter alone
// and with filters combined, over the default last 24 hours and over 30 days, measured with autocannon.
// Targets: p99 within TARGETS.callsOneP99Ms for one filter, TARGETS.callsCombinedP99Ms combined.
import { LLM_MODELS } from '../demo/simulated-bot.mjs';
import { measureInterleaved } from './autocannon.mjs';
import { say } from './print.mjs';
import { CALLS_AUTOCANNON } from './settings.mjs';

// The loader's (load-llm-calls.ts) busiest and quietest chat and user of its long tails.
const TOP_CHAT = '-1001000000000';
const QUIET_CHAT = '500004999';
const TOP_USER = '100000000';
const QUIET_USER = '100019999';

/** The filters measured: [label, query, combined]. */
function callQueries() {
  const month = `from=${new Date(Date.now() - 30 * 24 * 3600 * 1000).toISOString()}`;
  const { provider, model } = LLM_MODELS[0];
  const one = [
    ['no filter', ''],
    ['provider', `provider=${provider}`],
    ['model', `model=${model}`],
    ['feature', 'feature=digest'],
    ['no feature', 'no_feature=true'],
    ['busiest chat', `chat_id=${TOP_CHAT}`],
    ['quietest chat', `chat_id=${QUIET_CHAT}`],
    ['busiest user', `user_id=${TOP_USER}`],
    ['quietest user', `user_id=${QUIET_USER}`],
    ['error type', 'error_type=timeout'],
    ['failed', 'failed=true'],
    ['latency at least', 'min_latency_ms=1500'],
    ['cost at least', 'min_cost_usd=0.002'],
  ];
  const combined = [
    ['provider, feature, failed', `provider=${provider}&feature=reply&failed=true`],
    ['model, latency at least', `model=${model}&min_latency_ms=800`],
    ['chat, failed', `chat_id=${TOP_CHAT}&failed=true`],
    ['user, feature, cost at least', `user_id=${TOP_USER}&feature=reply&min_cost_usd=0.0005`],
    ['error type, model, cost at least', `error_type=rate_limit&model=${model}&min_cost_usd=0.0001`],
  ];
  const ranges = [
    ['24 h', ''],
    ['30 d', month],
  ];
  return ranges.flatMap(([range, from]) =>
    [...one.map((q) => [...q, false]), ...combined.map((q) => [...q, true])].map(
      ([label, query, isCombined]) => ({
        label: `${label}, ${range}`,
        query: [query, from].filter(Boolean).join('&'),
        combined: isCombined,
      }),
    ),
  );
}

/** The part's figures on one database: p50, p99 and requests a second per query. */
export async function measureCalls(server, session) {
  const queries = callQueries();
  const targets = queries.map((q) => ({
    name: q.label,
    url: `${server.baseUrl}/api/metrics/llm/calls${q.query ? `?${q.query}` : ''}`,
    headers: session.headers,
    combined: q.combined,
  }));
  say(
    `Measuring the Calls list's first page: ${targets.length} queries, ${CALLS_AUTOCANNON.connections} ` +
      `connections, ${CALLS_AUTOCANNON.duration} s each…`,
  );
  const figures = await measureInterleaved(targets, CALLS_AUTOCANNON);
  return targets.map((target) => ({ name: target.name, combined: target.combined, ...figures.get(target) }));
}
