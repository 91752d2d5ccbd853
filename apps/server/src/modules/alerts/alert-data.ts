import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { hourKey } from '../../lib/hour-buckets.js';
import { budgetUsagePercentage } from '../../lib/llm-cost.js';
import { isoTime } from '../../lib/time.js';
import { addDays, firstHourOfLocalDate, localDate } from '../../lib/zoned-days.js';
import { MINUTE_MS, minuteKey } from '../telemetry/rollup-aggregation.js';

/**
 * What the alert conditions read (docs/bot-developers/alerts.md, "Conditions": from the rollups and the
 * latest reports, never by scanning raw events). One instance serves one evaluation pass at one instant: each
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
  /** Deliveries that failed (their last change) in the last `minutes`. */
  /** Deliveries that failed or were refused in the last `minutes`. */
  failedDeliveries(minutes: number): Promise<number>;
}

interface LlmRow extends LlmTotals {
  provider: string;
  model: string;
  tokens: number;
}

/** A database sum: PostgreSQL returns bigint and numeric sums as strings, and SUM of no rows as NULL. */
const num = (value: unknown) => Number(value ?? 0);

const ZERO_LLM: LlmTotals = { requests: 0, failed: 0, costUsd: 0, latencyMsTotal: 0 };

function sumLlm(rows: LlmRow[], filter: LlmFilter): LlmTotals {
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
export function createAlertData(db: Kysely<Database>, now: number, options: { timezone: string }): AlertData {
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

  /** LLM sums by provider and model over [from, to) of the minute or the hourly rollups. */
  const llmRows = (grain: 'minute' | 'hour', from: string, to: string) => {
    const table = grain === 'minute' ? 'llm_usage_minute' : 'llm_usage_hourly';
    return db
      .selectFrom(table)
      .select((eb) => [
        'provider',
        'model',
        eb.fn.sum<number | string>('requests').as('requests'),
        eb.fn.sum<number | string>('failed_requests').as('failed'),
        eb.fn.sum<number | string>('cost_usd').as('cost'),
        eb.fn.sum<number | string>('latency_ms_total').as('latency'),
        eb.fn.sum<number | string>(eb('input_tokens', '+', eb.ref('output_tokens'))).as('tokens'),
      ])
      .where(grain, '>=', from)
      .where(grain, '<', to)
      .groupBy(['provider', 'model'])
      .execute()
      .then((rows) =>
        rows.map((r): LlmRow => ({
          provider: r.provider,
          model: r.model,
          requests: num(r.requests),
          failed: num(r.failed),
          costUsd: num(r.cost),
          latencyMsTotal: num(r.latency),
          tokens: num(r.tokens),
        })),
      );
  };

  /** Today's LLM usage by provider and model, from the hourly rollups of the local day. */
  const today = () =>
    once('llm-today', () => {
      const date = localDate(now, options.timezone);
      const from = hourKey(firstHourOfLocalDate(date, options.timezone));
      const to = hourKey(firstHourOfLocalDate(addDays(date, 1), options.timezone));
      return llmRows('hour', from, to);
    });

  return {
    now,

    latestHeartbeat: () =>
      once('heartbeat', async () => {
        const row = await db
          .selectFrom('heartbeats')
          .select(['ts', 'telegram_status'])
          .orderBy('ts', 'desc')
          .orderBy('id', 'desc')
          .limit(1)
          .executeTakeFirst();
        return row ?? null;
      }),

    latestMarketData: () =>
      once('market-data', async () => {
        const row = await db
          .selectFrom('market_data_reports')
          .select(['ts', 'last_candle_time', 'websocket_status'])
          .orderBy('ts', 'desc')
          .orderBy('id', 'desc')
          .limit(1)
          .executeTakeFirst();
        return row ?? null;
      }),

    errors: async (minutes, source) => {
      const rows = await once(`errors:${minutes}`, async () => {
        const found = await db
          .selectFrom('error_minute')
          .select((eb) => ['source', eb.fn.sum<number | string>('errors').as('errors')])
          .where('minute', '>=', since(minutes))
          .where('minute', '<', until)
          .groupBy('source')
          .execute();
        return found.map((r) => ({ source: r.source, errors: num(r.errors) }));
      });
      return rows.reduce((sum, r) => (source === null || r.source === source ? sum + r.errors : sum), 0);
    },

    llmWindow: async (minutes, filter) =>
      sumLlm(await once(`llm:${minutes}`, () => llmRows('minute', since(minutes), until)), filter),

    llmToday: async (filter) => sumLlm(await today(), filter),

    budgetUsage: async (provider) => {
      const budgets = await once('budgets', () =>
        db.selectFrom('token_budgets').selectAll().where('is_active', '=', 1).execute(),
      );
      const budget = budgets.find((b) => b.provider === provider);
      if (!budget) return null;
      const limits = {
        tokens: budget.daily_token_limit === null ? null : num(budget.daily_token_limit),
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
        const found = await db
          .selectFrom('integration_minute')
          .select((eb) => [
            'service_name',
            eb.fn.sum<number | string>('total_calls').as('total'),
            eb.fn.sum<number | string>('success_count').as('success'),
          ])
          .where('minute', '>=', since(minutes))
          .where('minute', '<', until)
          .groupBy('service_name')
          .execute();
        return new Map(found.map((r) => [r.service_name, { total: num(r.total), success: num(r.success) }]));
      });
      return rows.get(service) ?? { total: 0, success: 0 };
    },

    cache: (minutes) =>
      once(`cache:${minutes}`, async () => {
        const row = await db
          .selectFrom('cache_minute')
          .select((eb) => [
            eb.fn.sum<number | string>('hits').as('hits'),
            eb.fn.sum<number | string>('misses').as('misses'),
          ])
          .where('minute', '>=', since(minutes))
          .where('minute', '<', until)
          .executeTakeFirstOrThrow();
        return { hits: num(row.hits), misses: num(row.misses) };
      }),

    failedDeliveries: (minutes) =>
      once(`deliveries:${minutes}`, async () => {
        // A failed or refused delivery is not changed again (a retry makes a failed one queued), so
        // updated_at is when it failed or was refused; the (status, updated_at) index of migration
        // 20261126080000 finds them.
        const row = await db
          .selectFrom('deliveries')
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .where('status', 'in', ['failed', 'refused'])
          .where('updated_at', '>', isoTime(now - minutes * MINUTE_MS))
          .executeTakeFirstOrThrow();
        return num(row.n);
      }),
  };
}
