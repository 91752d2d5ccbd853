import {
  MARKET_DATA_NONE,
  NO_HEARTBEAT,
  type ActiveLock,
  type BotHealth,
  type CacheMetrics,
  type GeminiUsage,
  type IntegrationMetrics,
  type IntegrationStatus,
  type LlmUsage,
  type MarketDataStatus,
} from '@lumi/contract';
import { dataFreshness } from '../../lib/freshness.js';
import { floorHour, HOUR_MS, hourKey, hourSeries, windowStart } from '../../lib/hour-buckets.js';
import { roundTo } from '../../lib/llm-cost.js';
import type { Cached } from '../../lib/ttl-cache.js';
import { lastLocalDays, localDate, type LocalDay } from '../../lib/zoned-days.js';
import * as store from '../telemetry-store/telemetry-store.js';
import { DashboardService } from './dashboard-service.js';

const HEALTH_WINDOW_HOURS = 24;
const money = (usd: number) => roundTo(usd, 6);

/** [from, to) hour keys of a window of whole hours. */
interface HourWindow {
  from: string;
  to: string;
}

/** The index of the day holding hour bucket `ms`: the last whose start is not after it. */
function dayIndex(days: LocalDay[], ms: number): number {
  let lo = 0;
  let hi = days.length - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (days[mid]!.from <= ms) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * The metric endpoints (spec section 3 shapes; docs/operators/metrics.md, "The dashboards"). Everything that
 * sums reads the hourly rollups; only the latest heartbeat, market report and cache report are read from raw
 * events, by index. Windows are whole UTC hours ending with the current one.
 *
 * Reads go through `cache` (see services.ts: cleared on every instance when stored telemetry changes,
 * otherwise kept a few seconds). Keys hold every parameter and the window they depend on (the current hour, or the
 * current local date for llm-usage), so a new hour or day is never answered from the previous one. Where
 * the answer depends on the exact time (bot-health's no_heartbeat and uptime, market-data's freshness),
 * only the rows are cached and the time-dependent part is worked out on every request, so it is exact.
 */
export class MetricsService extends DashboardService {
  /** The windows of the current hour by length; formatting their keys showed in every request's profile. */
  private windows = { hour: Number.NaN, byHours: new Map<number, HourWindow>() };

  /** [from, to) hour keys of the `hours` whole hours ending with the current one. */
  private window(now: number, hours: number): HourWindow {
    const hour = floorHour(now);
    if (hour !== this.windows.hour) this.windows = { hour, byHours: new Map() };
    let window = this.windows.byHours.get(hours);
    if (!window) {
      window = { from: hourKey(windowStart(now, hours)), to: hourKey(hour + HOUR_MS) };
      this.windows.byHours.set(hours, window);
    }
    return window;
  }

  async botHealth(): Promise<BotHealth> {
    const now = this.now();
    const { from, to } = this.window(now, HEALTH_WINDOW_HOURS);
    const { beat, errorCount } = await this.cache.get(`bot-health:${from}`, async () => ({
      // One query after the other: a request holds at most one pooled connection at a time.
      beat: await store.latestHeartbeat(this.db),
      errorCount: await store.errorCount(this.db, from, to),
    }));
    const fresh = beat && now - Date.parse(beat.ts) <= this.settings.heartbeatStaleSeconds * 1000;
    if (!beat || !fresh) {
      // Without a recent heartbeat nothing is known about the bot now: no uptime, no locks.
      return {
        telegram_status: NO_HEARTBEAT,
        uptime_seconds: 0,
        error_count_24h: errorCount,
        active_locks: [],
      };
    }
    return {
      telegram_status: beat.telegram_status,
      uptime_seconds: Math.max(0, Math.floor((now - Date.parse(beat.started_at)) / 1000)),
      error_count_24h: errorCount,
      active_locks: JSON.parse(beat.active_locks) as ActiveLock[],
    };
  }

  /** Per day in LUMI_TIMEZONE and provider, every day of the window for every provider seen in it. */
  llmUsage(dayCount: number): Cached<LlmUsage> {
    const now = this.now();
    const today = localDate(now, this.settings.timezone);
    return this.cache.get(`llm-usage:${dayCount}:${today}`, () => this.computeLlmUsage(now, dayCount));
  }

  /**
   * One local day's LLM usage by provider, with requests (a schedule's "LLM usage yesterday"): `daysAgo`
   * 0 is today, 1 yesterday, in LUMI_TIMEZONE.
   */
  async llmUsageOfDay(daysAgo: number) {
    const days = lastLocalDays(this.now(), daysAgo + 1, this.settings.timezone);
    const day = days[0]!;
    const rows = await store.llmUsageByHourAndProvider(this.db, hourKey(day.from), hourKey(day.to));
    const byProvider = new Map<
      string,
      { provider: string; tokens: number; cost: number; requests: number }
    >();
    for (const row of rows) {
      const sum = byProvider.get(row.provider) ?? { provider: row.provider, tokens: 0, cost: 0, requests: 0 };
      sum.tokens += row.tokens;
      sum.cost += row.cost;
      sum.requests += row.requests;
      byProvider.set(row.provider, sum);
    }
    const providers = [...byProvider.values()]
      .sort((a, b) => a.provider.localeCompare(b.provider))
      .map((sum) => ({ ...sum, cost: money(sum.cost) }));
    return { date: day.date, providers };
  }

  private async computeLlmUsage(now: number, dayCount: number): Promise<LlmUsage> {
    const days = lastLocalDays(now, dayCount, this.settings.timezone);
    const rows = await store.hourRowsSplit(
      this.history,
      'llm-usage',
      { from: days[0]!.from, to: days.at(-1)!.to, now },
      (from, to) => store.llmUsageByHourAndProvider(this.db, from, to),
    );
    const providers = [...new Set(rows.map((r) => r.provider))].sort();
    const cells = new Map<string, { tokens: number; cost: number }>();
    const totals = { tokens: 0, cost: 0, requests: 0 };
    let unpriced = 0;
    for (const row of rows) {
      unpriced += row.unpriced;
      const key = `${dayIndex(days, Date.parse(row.hour))}:${row.provider}`;
      const cell = cells.get(key) ?? { tokens: 0, cost: 0 };
      cell.tokens += row.tokens;
      cell.cost += row.cost;
      cells.set(key, cell);
      totals.tokens += row.tokens;
      totals.cost += row.cost;
      totals.requests += row.requests;
    }
    return {
      daily_usage: days.flatMap((day, i) =>
        providers.map((provider) => {
          const cell = cells.get(`${i}:${provider}`);
          return { date: day.date, provider, tokens_used: cell?.tokens ?? 0, cost: money(cell?.cost ?? 0) };
        }),
      ),
      totals: { ...totals, cost: money(totals.cost) },
      unpriced_requests: unpriced,
      window: {
        from: hourKey(days[0]!.from),
        to: hourKey(days.at(-1)!.to),
        timezone: this.settings.timezone,
      },
    };
  }

  cacheMetrics(): Cached<CacheMetrics> {
    const { from, to } = this.window(this.now(), HEALTH_WINDOW_HOURS);
    return this.cache.get(`cache:${from}`, () => this.computeCacheMetrics(from, to));
  }

  private async computeCacheMetrics(from: string, to: string): Promise<CacheMetrics> {
    const totals = await store.cacheTotals(this.db, from, to);
    const latest = await store.latestCacheReport(this.db, from);
    const lookups = totals.hits + totals.misses;
    return {
      hit_rate: lookups === 0 ? 0 : roundTo(totals.hits / lookups, 4),
      total_hits: totals.hits,
      cache_entries: latest?.entries ?? 0,
      avg_response_time_cached: totals.hits === 0 ? 0 : roundTo(totals.cachedMsTotal / totals.hits, 2),
      avg_response_time_uncached:
        totals.misses === 0 ? 0 : roundTo(totals.uncachedMsTotal / totals.misses, 2),
      last_updated: latest?.ts ?? null,
    };
  }

  async marketData(): Promise<MarketDataStatus> {
    const latest = await this.cache.get('market-data', () => store.latestMarketData(this.db));
    if (!latest) {
      return {
        data_freshness: MARKET_DATA_NONE,
        websocket_status: 'unknown',
        last_candle_time: null,
        missing_intervals: 0,
      };
    }
    return {
      data_freshness: dataFreshness(
        Date.parse(latest.last_candle_time),
        this.now(),
        this.settings.marketDataFreshSeconds,
      ),
      websocket_status: latest.websocket_status,
      last_candle_time: latest.last_candle_time,
      missing_intervals: latest.missing_intervals,
    };
  }

  /** Gemini: provider 'gemini' or a model named 'gemini…' (see telemetry-store/rollup-reads.repository.ts). */
  geminiUsage(hours: number): Cached<GeminiUsage> {
    const now = this.now();
    // The key holds the window, so the zero-filled current hour appears as soon as the hour turns.
    const { from, to } = this.window(now, hours);
    return this.cache.get(`gemini-usage:${hours}:${from}`, () =>
      this.computeGeminiUsage(now, hours, from, to),
    );
  }

  private async computeGeminiUsage(
    now: number,
    hours: number,
    from: string,
    to: string,
  ): Promise<GeminiUsage> {
    const series = hourSeries(now, hours);
    const rows = await store.hourRowsSplit(
      this.history,
      'gemini-usage',
      { from: Date.parse(from), to: Date.parse(to), now },
      (first, end) => store.geminiUsageByHourAndModel(this.db, first, end),
    );
    const byHour = new Map<string, { requests: number; tokens: number; cost: number }>();
    const models: GeminiUsage['summary']['models'] = {};
    const summary = { total_requests: 0, total_tokens: 0, total_cost: 0 };
    let lastUpdated: string | null = null;
    for (const row of rows) {
      const hour = byHour.get(row.hour) ?? { requests: 0, tokens: 0, cost: 0 };
      hour.requests += row.requests;
      hour.tokens += row.tokens;
      hour.cost += row.cost;
      byHour.set(row.hour, hour);
      const model = models[row.model] ?? { requests: 0, estimated_tokens: 0, estimated_cost: 0 };
      model.requests += row.requests;
      model.estimated_tokens += row.tokens;
      model.estimated_cost += row.cost;
      models[row.model] = model;
      summary.total_requests += row.requests;
      summary.total_tokens += row.tokens;
      summary.total_cost += row.cost;
      if (row.lastCallAt && (!lastUpdated || row.lastCallAt > lastUpdated)) lastUpdated = row.lastCallAt;
    }
    for (const model of Object.values(models)) model.estimated_cost = money(model.estimated_cost);
    return {
      summary: { ...summary, total_cost: money(summary.total_cost), models },
      time_series: series.map((timestamp) => {
        const hour = byHour.get(timestamp);
        return {
          timestamp,
          requests: hour?.requests ?? 0,
          tokens: hour?.tokens ?? 0,
          cost: money(hour?.cost ?? 0),
        };
      }),
      last_updated: lastUpdated,
    };
  }

  /** Per service over the last 24 hours; success_rate in percent (the panel's thresholds are 99 and 95). */
  integrations(): Cached<IntegrationMetrics> {
    const { from, to } = this.window(this.now(), HEALTH_WINDOW_HOURS);
    return this.cache.get(`integrations:${from}`, () => this.computeIntegrations(from, to));
  }

  private async computeIntegrations(from: string, to: string): Promise<IntegrationMetrics> {
    const rows = await store.integrationRows(this.db, from, to);
    const byService = new Map<string, IntegrationMetrics['data'][number]>();
    for (const row of rows) {
      const entry = byService.get(row.serviceName) ?? {
        service_name: row.serviceName,
        last_api_call: row.lastCallAt,
        last_status: row.lastStatus as IntegrationStatus,
        total_calls: 0,
        success_count: 0,
        error_count: 0,
        success_rate: 0,
      };
      entry.total_calls += row.total;
      entry.success_count += row.success;
      entry.error_count += row.error;
      if (row.lastCallAt > entry.last_api_call) {
        entry.last_api_call = row.lastCallAt;
        entry.last_status = row.lastStatus as IntegrationStatus;
      }
      byService.set(row.serviceName, entry);
    }
    const data = [...byService.values()].sort((a, b) => (a.service_name < b.service_name ? -1 : 1));
    for (const entry of data) {
      entry.success_rate =
        entry.total_calls === 0 ? 0 : roundTo((entry.success_count / entry.total_calls) * 100, 2);
    }
    return { data };
  }
}
