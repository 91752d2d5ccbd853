import { hourKey, MINUTE_MS, minuteKey } from '../../lib/hour-buckets.js';
import { budgetUsagePercentage } from '../../lib/llm-cost.js';
import { isoTime } from '../../lib/time.js';
import { addDays, firstHourOfLocalDate, localDate } from '../../lib/zoned-days.js';
import type { BudgetsService } from '../budgets/budgets.service.js';
import type { DeliveriesService } from '../messaging/deliveries/deliveries.service.js';
import type { LimitsService } from '../limits/limits.service.js';
import type { Spender } from '../limits/spend-spikes.js';
import type { LlmModelSums, MetricsReadService } from '../metrics/metrics-read.service.js';

/**
 * What the alert conditions read (docs/bot-developers/alerts.md, "Conditions": from the rollups and the
 * latest reports, never by scanning raw events), through the services of the modules that own the figures
 * (`AlertSources`). One instance serves one evaluation pass at one instant: each
 * read is made once and kept, so 200 rules cost a query per distinct window and table, not one per rule.
 *
 * A window of M minutes is the minute rollups from the bucket holding now − M through the current one: it
 * covers at least the last M minutes (up to a minute more), so an event near its start is never missed.
 * "Today" is the current day in LUMI_TIMEZONE mapped onto the hourly rollups, as the budgets define it
 * (lib/zoned-days.ts).
 */

/** Sums of LLM calls, of all providers and models or of the ones asked for. */
export interface LlmTotals {
  requests: number;
  failed: number;
  costUsd: number;
  latencyMsTotal: number;
}

/** Narrows LLM sums to a provider and/or model; null means all. */
export interface LlmFilter {
  provider: string | null;
  model: string | null;
}

export interface AlertData {
  /** The instant the pass evaluates at (ms). */
  readonly now: number;
  /** The newest heartbeat by event time, or null when the bot never sent one. */
  latestHeartbeat(): Promise<{ ts: string; telegram_status: string } | null>;
  /** The newest market-data report, or null when there was none. */
  latestMarketData(): Promise<{ ts: string; last_candle_time: string; websocket_status: string } | null>;
  /** Error events in the window, of one source or all. */
  errors(minutes: number, source: string | null): Promise<number>;
  /** LLM calls in the window. */
  llmWindow(minutes: number, filter: LlmFilter): Promise<LlmTotals>;
  /** LLM calls today (LUMI_TIMEZONE). */
  llmToday(filter: LlmFilter): Promise<LlmTotals>;
  /** Today's usage of a provider's active budget in percent (tokens or cost, the higher); null without one. */
  budgetUsage(provider: string): Promise<number | null>;
  /** Calls of an integration in the window and how many succeeded. */
  integration(minutes: number, service: string): Promise<{ total: number; success: number }>;
  /** Cache hits and misses in the window. */
  cache(minutes: number): Promise<{ hits: number; misses: number }>;
  /** Deliveries that failed or were refused in the last `minutes`. */
  failedDeliveries(minutes: number): Promise<number>;
  /** Calls that reached a limit in the last `minutes`, of one limit or any. */
  limitReached(minutes: number, limitId: number | null): Promise<number>;
  /** The top spenders of the current and previous hour, each with its usual. */
  spenders(): Promise<Spender[]>;
}

/** Where the figures come from: the metrics' reads of the telemetry, the budgets, the deliveries, the limits. */
export interface AlertSources {
  metrics: Pick<
    MetricsReadService,
    | 'latestHeartbeat'
    | 'latestMarketData'
    | 'llmByModel'
    | 'errorsBySource'
    | 'integrationCalls'
    | 'cacheLookups'
  >;
  budgets: Pick<BudgetsService, 'activeBudgets'>;
  deliveries: Pick<DeliveriesService, 'failedSince'>;
  limits: Pick<LimitsService, 'reachedSince' | 'spenders'>;
}

const ZERO_LLM: LlmTotals = { requests: 0, failed: 0, costUsd: 0, latencyMsTotal: 0 };

function sumLlm(rows: LlmModelSums[], filter: LlmFilter): LlmTotals {
  const total = { ...ZERO_LLM };
  for (const row of rows) {
    if (filter.provider !== null && row.provider !== filter.provider) continue;
    if (filter.model !== null && row.model !== filter.model) continue;
    total.requests += row.requests;
    total.failed += row.failed;
    total.costUsd += row.costUsd;
    total.latencyMsTotal += row.latencyMsTotal;
  }
  return total;
}

/** Reads what the conditions need at `now`, each at most once; see the top of this file. */
export function createAlertData(
  sources: AlertSources,
  now: number,
  options: { timezone: string },
): AlertData {
  const { metrics } = sources;
  const reads = new Map<string, Promise<unknown>>();
  const once = <T>(key: string, read: () => Promise<T>): Promise<T> => {
    let pending = reads.get(key) as Promise<T> | undefined;
    if (!pending) {
      pending = read();
      reads.set(key, pending);
    }
    return pending;
  };

  // Windows are [from, until) in bucket keys, as the dashboards' are: until is the bucket after the current.
  const until = minuteKey(now + MINUTE_MS);
  const since = (minutes: number) => minuteKey(now - minutes * MINUTE_MS);

  /** Today's LLM usage by provider and model, from the hourly rollups of the local day. */
  const today = () =>
    once('llm-today', () => {
      const date = localDate(now, options.timezone);
      const from = hourKey(firstHourOfLocalDate(date, options.timezone));
      const to = hourKey(firstHourOfLocalDate(addDays(date, 1), options.timezone));
      return metrics.llmByModel('hour', from, to);
    });

  return {
    now,

    latestHeartbeat: () => once('heartbeat', () => metrics.latestHeartbeat()),

    latestMarketData: () => once('market-data', () => metrics.latestMarketData()),

    errors: async (minutes, source) => {
      const rows = await once(`errors:${minutes}`, () => metrics.errorsBySource(since(minutes), until));
      return rows.reduce((sum, r) => (source === null || r.source === source ? sum + r.errors : sum), 0);
    },

    llmWindow: async (minutes, filter) =>
      sumLlm(await once(`llm:${minutes}`, () => metrics.llmByModel('minute', since(minutes), until)), filter),

    llmToday: async (filter) => sumLlm(await today(), filter),

    budgetUsage: async (provider) => {
      const budgets = await once('budgets', () => sources.budgets.activeBudgets());
      const budget = budgets.find((b) => b.provider === provider);
      if (!budget) return null;
      const limits = {
        tokens: budget.daily_token_limit === null ? null : Number(budget.daily_token_limit),
        cost: budget.daily_cost_limit,
      };
      // A budget without a limit measures nothing (budgetUsagePercentage would call it 0 %).
      if (!limits.tokens && !limits.cost) return null;
      const usage = { tokens: 0, cost: 0 };
      for (const row of await today()) {
        if (row.provider !== provider) continue;
        usage.tokens += row.tokens;
        usage.cost += row.costUsd;
      }
      return budgetUsagePercentage(limits, usage);
    },

    integration: async (minutes, service) => {
      const rows = await once(`integrations:${minutes}`, async () => {
        const found = await metrics.integrationCalls(since(minutes), until);
        return new Map(found.map((r) => [r.serviceName, { total: r.total, success: r.success }]));
      });
      return rows.get(service) ?? { total: 0, success: 0 };
    },

    cache: (minutes) => once(`cache:${minutes}`, () => metrics.cacheLookups(since(minutes), until)),

    failedDeliveries: (minutes) =>
      once(`deliveries:${minutes}`, () => sources.deliveries.failedSince(isoTime(now - minutes * MINUTE_MS))),

    limitReached: (minutes, limitId) =>
      once(`limits:${minutes}:${limitId}`, () =>
        sources.limits.reachedSince(isoTime(now - minutes * MINUTE_MS), limitId),
      ),

    spenders: () => once('spenders', () => sources.limits.spenders(now)),
  };
}
