import type { AlertCondition, AlertEvaluation } from '@lumi/contract';
import { roundTo } from '../../lib/llm-cost.js';
import type { AlertData, LlmFilter } from './alert-data.js';

/**
 * What each condition of a rule comes to now (docs/bot-developers/alerts.md, "Conditions"): the measured
 * value, the threshold, whether the condition holds, and one sentence with the numbers that an operator reads
 * in the console, in the history and in the notification. `holds` is null when there is nothing to judge: no
 * heartbeat or market report ever, fewer calls than the rule asks for, no calls to average, or no budget to
 * measure. Zero errors, zero cost and zero failed deliveries are data: the value is 0.
 */

type Of<T extends AlertCondition['type']> = Extract<AlertCondition, { type: T }>;
type Evaluator<T extends AlertCondition['type']> = (
  condition: Of<T>,
  data: AlertData,
) => Promise<AlertEvaluation>;

const numberFormats = new Map<number, Intl.NumberFormat>();

/** A number as the sentences print it: thousands separated, at most `digits` decimals. */
function format(value: number, digits = 0): string {
  let formatter = numberFormats.get(digits);
  if (!formatter) {
    formatter = new Intl.NumberFormat('en-US', { maximumFractionDigits: digits });
    numberFormats.set(digits, formatter);
  }
  return formatter.format(value);
}

const dollars = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const usd = (value: number) => `$${dollars.format(value)}`;
// A no-break space keeps "80 %" on one line wherever the summary wraps.
const percent = (value: number) => `${format(value, 1)}\u00a0%`;
const plural = (count: number, one: string, many: string) => `${format(count)} ${count === 1 ? one : many}`;
const lastMinutes = (minutes: number) => `in the last ${format(minutes)} min`;

/** " for openai/gpt-4o", " for openai", " for model gpt-4o", or nothing for all calls. */
function llmScope(filter: LlmFilter): string {
  if (filter.provider !== null && filter.model !== null) return ` for ${filter.provider}/${filter.model}`;
  if (filter.provider !== null) return ` for ${filter.provider}`;
  if (filter.model !== null) return ` for model ${filter.model}`;
  return '';
}

function noData(threshold: number, unit: AlertEvaluation['unit'], summary: string): AlertEvaluation {
  return { value: null, threshold, unit, holds: null, summary };
}

/** A rate condition's finding: `part` of `whole` in percent, which holds (fires) below the threshold. */
function rateBelow(
  part: number,
  whole: number,
  threshold: number,
  describe: (rate: number) => string,
): AlertEvaluation {
  const rate = roundTo((part / whole) * 100, 2);
  return { value: rate, threshold, unit: 'percent', holds: rate < threshold, summary: describe(rate) };
}

/** Whole seconds from `ts` to now; a heartbeat stamped slightly ahead of the server's clock is 0 s old. */
function secondsSince(ts: string, now: number): number {
  return Math.max(0, Math.floor((now - Date.parse(ts)) / 1000));
}

const heartbeatMissing: Evaluator<'heartbeat_missing'> = async (c, data) => {
  const beat = await data.latestHeartbeat();
  if (!beat) return noData(c.seconds, 's', 'No heartbeat received yet');
  const age = secondsSince(beat.ts, data.now);
  const holds = age > c.seconds;
  const summary = holds
    ? `No heartbeat for ${format(age)} s (threshold ${format(c.seconds)} s)`
    : `Last heartbeat ${format(age)} s ago (threshold ${format(c.seconds)} s)`;
  return { value: age, threshold: c.seconds, unit: 's', holds, summary };
};

const telegramDisconnected: Evaluator<'telegram_disconnected'> = async (_c, data) => {
  const beat = await data.latestHeartbeat();
  if (!beat) return noData(1, 'bool', 'No heartbeat received yet');
  const holds = beat.telegram_status !== 'connected';
  const age = secondsSince(beat.ts, data.now);
  return {
    value: holds ? 1 : 0,
    threshold: 1,
    unit: 'bool',
    holds,
    summary: `Telegram status ${beat.telegram_status} (last heartbeat ${format(age)} s ago)`,
  };
};

const errors: Evaluator<'errors'> = async (c, data) => {
  const count = await data.errors(c.minutes, c.source);
  const from = c.source === null ? '' : ` from ${c.source}`;
  return {
    value: count,
    threshold: c.count,
    unit: 'count',
    holds: count > c.count,
    summary: `${plural(count, 'error', 'errors')}${from} ${lastMinutes(c.minutes)} (threshold: more than ${format(c.count)})`,
  };
};

const llmCost: Evaluator<'llm_cost'> = async (c, data) => {
  const filter = { provider: c.provider, model: c.model };
  const totals = c.window === 'hour' ? await data.llmWindow(60, filter) : await data.llmToday(filter);
  const cost = roundTo(totals.costUsd, 6);
  const when = c.window === 'hour' ? 'in the last hour' : 'today';
  return {
    value: cost,
    threshold: c.usd,
    unit: 'usd',
    holds: cost > c.usd,
    summary: `LLM spend ${usd(cost)} ${when}${llmScope(filter)} (threshold: above ${usd(c.usd)})`,
  };
};

const llmFailureRate: Evaluator<'llm_failure_rate'> = async (c, data) => {
  const filter = { provider: c.provider, model: c.model };
  const totals = await data.llmWindow(c.minutes, filter);
  if (totals.requests < c.min_calls) {
    return noData(
      c.percent,
      'percent',
      totals.requests === 0
        ? `No LLM calls${llmScope(filter)} ${lastMinutes(c.minutes)}`
        : `Only ${plural(totals.requests, 'LLM call', 'LLM calls')}${llmScope(filter)} ${lastMinutes(c.minutes)}, fewer than the ${format(c.min_calls)} needed`,
    );
  }
  const rate = roundTo((totals.failed / totals.requests) * 100, 2);
  return {
    value: rate,
    threshold: c.percent,
    unit: 'percent',
    holds: rate > c.percent,
    summary: `${percent(rate)} of ${plural(totals.requests, 'LLM call', 'LLM calls')}${llmScope(filter)} failed ${lastMinutes(c.minutes)} (threshold: above ${percent(c.percent)})`,
  };
};

const llmLatency: Evaluator<'llm_latency'> = async (c, data) => {
  const filter = { provider: c.provider, model: c.model };
  const totals = await data.llmWindow(c.minutes, filter);
  if (totals.requests === 0) {
    return noData(c.ms, 'ms', `No LLM calls${llmScope(filter)} ${lastMinutes(c.minutes)}`);
  }
  const average = roundTo(totals.latencyMsTotal / totals.requests, 1);
  return {
    value: average,
    threshold: c.ms,
    unit: 'ms',
    holds: average > c.ms,
    summary: `Average LLM latency ${format(average)} ms over ${plural(totals.requests, 'call', 'calls')}${llmScope(filter)} ${lastMinutes(c.minutes)} (threshold: above ${format(c.ms)} ms)`,
  };
};

const budgetUsage: Evaluator<'budget_usage'> = async (c, data) => {
  const usage = await data.budgetUsage(c.provider);
  if (usage === null) {
    return noData(c.percent, 'percent', `No active budget with a daily limit for ${c.provider}`);
  }
  return {
    value: usage,
    threshold: c.percent,
    unit: 'percent',
    holds: usage >= c.percent,
    summary: `Budget of ${c.provider} at ${percent(usage)} today (threshold: ${percent(c.percent)})`,
  };
};

const integrationSuccessRate: Evaluator<'integration_success_rate'> = async (c, data) => {
  const { total, success } = await data.integration(c.minutes, c.service);
  if (total < c.min_calls) {
    return noData(
      c.percent,
      'percent',
      total === 0
        ? `No calls to ${c.service} ${lastMinutes(c.minutes)}`
        : `Only ${plural(total, 'call', 'calls')} to ${c.service} ${lastMinutes(c.minutes)}, fewer than the ${format(c.min_calls)} needed`,
    );
  }
  return rateBelow(
    success,
    total,
    c.percent,
    (rate) =>
      `${percent(rate)} of ${plural(total, 'call', 'calls')} to ${c.service} succeeded ${lastMinutes(c.minutes)} (threshold: below ${percent(c.percent)})`,
  );
};

const marketDataStale: Evaluator<'market_data_stale'> = async (c, data) => {
  const report = await data.latestMarketData();
  if (!report) return noData(c.minutes, 'min', 'No market data report received yet');
  const age = roundTo(Math.max(0, data.now - Date.parse(report.last_candle_time)) / 60_000, 1);
  const stale = age > c.minutes;
  const disconnected = c.websocket && report.websocket_status !== 'connected';
  return {
    value: age,
    threshold: c.minutes,
    unit: 'min',
    holds: stale || disconnected,
    summary: `Market data: last candle ${format(age, 1)} min old, websocket ${report.websocket_status} (threshold: older than ${format(c.minutes)} min${c.websocket ? ' or websocket not connected' : ''})`,
  };
};

const cacheHitRate: Evaluator<'cache_hit_rate'> = async (c, data) => {
  const { hits, misses } = await data.cache(c.minutes);
  const lookups = hits + misses;
  if (lookups < c.min_lookups) {
    return noData(
      c.percent,
      'percent',
      lookups === 0
        ? `No cache lookups ${lastMinutes(c.minutes)}`
        : `Only ${plural(lookups, 'cache lookup', 'cache lookups')} ${lastMinutes(c.minutes)}, fewer than the ${format(c.min_lookups)} needed`,
    );
  }
  return rateBelow(
    hits,
    lookups,
    c.percent,
    (rate) =>
      `Cache hit rate ${percent(rate)} of ${plural(lookups, 'lookup', 'lookups')} ${lastMinutes(c.minutes)} (threshold: below ${percent(c.percent)})`,
  );
};

const deliveryFailures: Evaluator<'delivery_failures'> = async (c, data) => {
  const failed = await data.failedDeliveries(c.minutes);
  return {
    value: failed,
    threshold: c.count,
    unit: 'count',
    holds: failed > c.count,
    summary: `${plural(failed, 'delivery', 'deliveries')} failed or refused ${lastMinutes(c.minutes)} (threshold: more than ${format(c.count)})`,
  };
};

const limitReached: Evaluator<'limit_reached'> = async (c, data) => {
  const reached = await data.limitReached(c.minutes, c.limit_id);
  const which = c.limit_id === null ? 'a limit' : `limit ${c.limit_id}`;
  return {
    value: reached,
    threshold: 0,
    unit: 'count',
    holds: reached > 0,
    summary: `${plural(reached, 'call', 'calls')} reached ${which} ${lastMinutes(c.minutes)}`,
  };
};

/** The spender furthest above its usual among those over the floor; a new spender's usual is 0. */
const spendSpike: Evaluator<'spend_spike'> = async (c, data) => {
  const spenders = (await data.spenders()).filter((s) => s.spent >= c.usd);
  const ratio = (s: { spent: number; usual: number }) => (s.usual > 0 ? s.spent / s.usual : Infinity);
  const worst = spenders.reduce<(typeof spenders)[number] | null>(
    (a, b) => (a === null || ratio(b) > ratio(a) ? b : a),
    null,
  );
  if (!worst) {
    return {
      value: 0,
      threshold: c.usd,
      unit: 'usd',
      holds: false,
      summary: `No chat or user spent ${usd(c.usd)} or more in the last two hours`,
    };
  }
  const threshold = Math.max(c.usd, worst.usual * c.factor);
  return {
    value: worst.spent,
    threshold,
    unit: 'usd',
    holds: worst.spent >= threshold,
    summary: `${worst.kind === 'chat' ? 'Chat' : 'User'} ${worst.subject} spent ${usd(worst.spent)} in the last two hours; its usual is ${usd(worst.usual)} (threshold: ${format(c.factor)} times its usual, at least ${usd(c.usd)})`,
  };
};

const evaluators: { [T in AlertCondition['type']]: Evaluator<T> } = {
  heartbeat_missing: heartbeatMissing,
  telegram_disconnected: telegramDisconnected,
  errors,
  llm_cost: llmCost,
  llm_failure_rate: llmFailureRate,
  llm_latency: llmLatency,
  budget_usage: budgetUsage,
  integration_success_rate: integrationSuccessRate,
  market_data_stale: marketDataStale,
  cache_hit_rate: cacheHitRate,
  delivery_failures: deliveryFailures,
  limit_reached: limitReached,
  spend_spike: spendSpike,
};

/** What `condition` comes to with the data of one evaluation pass. */
export function evaluateCondition(condition: AlertCondition, data: AlertData): Promise<AlertEvaluation> {
  const evaluate = evaluators[condition.type] as Evaluator<AlertCondition['type']>;
  return evaluate(condition, data);
}
