import {
  LLM_RANGE_DEFAULT_HOURS,
  LLM_RANGE_MAX_DAYS,
  LLM_RANGE_MESSAGES,
  type LlmErrors,
  type LlmFeatureUsage,
  type LlmRangeQuery,
  type LlmTopChats,
  type LlmTopQuery,
  type LlmTopUsers,
} from '@lumi/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { utcDay } from '../../db/event-partitions.js';
import { HOUR_MS } from '../../lib/hour-buckets.js';
import { roundTo } from '../../lib/llm-cost.js';
import type { Clock } from '../../lib/time.js';
import type { Cached, TtlCache } from '../../lib/ttl-cache.js';
import * as store from '../telemetry-store/telemetry-store.js';
import { parseMetricsRange, type MetricsRange, type MetricsRangeRules } from './metrics-range.js';

const money = (usd: number) => roundTo(usd, 6);
const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * `to` defaults to the end of the current hour and `from` to 24 hours before `to`, so the default is the
 * current UTC hour and the 23 before it, as on the other dashboards.
 */
const RANGE_RULES: MetricsRangeRules = {
  defaultTo: 'end-of-hour',
  defaultMs: LLM_RANGE_DEFAULT_HOURS * HOUR_MS,
  maxDays: LLM_RANGE_MAX_DAYS,
  messages: LLM_RANGE_MESSAGES,
};

interface Usage {
  requests: number;
  failed_requests: number;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number;
}

const emptyUsage = (): Usage => ({
  requests: 0,
  failed_requests: 0,
  input_tokens: 0,
  output_tokens: 0,
  cost_usd: 0,
});

function addUsage(sum: Usage, row: Usage): void {
  sum.requests += row.requests;
  sum.failed_requests += row.failed_requests;
  sum.input_tokens += row.input_tokens;
  sum.output_tokens += row.output_tokens;
  sum.cost_usd += row.cost_usd;
}

/**
 * Who and what spends (docs/operators/metrics.md, "Usage by feature, chat and user"): the answers read the
 * dimension rollups (and, for error rates, the hourly usage rollup) only, never raw events, and go through
 * the dashboards' cache (cleared on every instance when stored telemetry changes), keyed by the resolved
 * range. The housekeeping job bounds the daily chat and user rollups (the telemetry store's
 * housekeeping.service.ts, `compactFinishedDays`).
 */
export class LlmDimensionsService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: Clock,
    private readonly cache: TtlCache,
    /** The settled days' rankings (services.ts: cleared by changes reaching back before this hour). */
    private readonly history: TtlCache,
  ) {}

  /** Cost, tokens, requests and failures by feature, and within each by provider and model. */
  features(query: LlmRangeQuery): Cached<LlmFeatureUsage> {
    const range = parseMetricsRange(query, this.now(), RANGE_RULES);
    return this.cache.get(`llm-features:${range.from}:${range.to}`, async () => {
      const rows = await store.featureUsage(this.db, range.from, range.to);
      const byFeature = new Map<
        string,
        Usage & { models: Array<Usage & { provider: string; model: string }> }
      >();
      for (const row of rows) {
        const entry = byFeature.get(row.feature) ?? { ...emptyUsage(), models: [] };
        addUsage(entry, row);
        entry.models.push({
          provider: row.provider,
          model: row.model,
          requests: row.requests,
          failed_requests: row.failed_requests,
          input_tokens: row.input_tokens,
          output_tokens: row.output_tokens,
          cost_usd: money(row.cost_usd),
        });
        byFeature.set(row.feature, entry);
      }
      const features = [...byFeature.entries()].map(([feature, entry]) => ({
        feature: feature === store.NO_FEATURE ? null : feature,
        ...entry,
        cost_usd: money(entry.cost_usd),
        models: entry.models.sort(
          (a, b) => b.cost_usd - a.cost_usd || byName(a.provider, b.provider) || byName(a.model, b.model),
        ),
      }));
      features.sort((a, b) => b.cost_usd - a.cost_usd || byName(a.feature ?? '', b.feature ?? ''));
      return { from: range.from, to: range.to, features };
    });
  }

  topChats(query: LlmTopQuery): Cached<LlmTopChats> {
    const range = parseMetricsRange(query, this.now(), RANGE_RULES);
    return this.cache.get(`llm-top-chats:${range.fromDay}:${range.toDay}:${query.limit}`, async () => {
      const { top, other, total } = await this.top('chats', range, query.limit);
      return {
        from_day: range.fromDay,
        to_day: range.toDay,
        chats: top.map(({ id, ...spend }) => ({ chat_id: id, ...spend })),
        other,
        total,
      };
    });
  }

  topUsers(query: LlmTopQuery): Cached<LlmTopUsers> {
    const range = parseMetricsRange(query, this.now(), RANGE_RULES);
    return this.cache.get(`llm-top-users:${range.fromDay}:${range.toDay}:${query.limit}`, async () => {
      const { top, other, total } = await this.top('users', range, query.limit);
      return {
        from_day: range.fromDay,
        to_day: range.toDay,
        users: top.map(({ id, ...spend }) => ({ user_id: id, ...spend })),
        other,
        total,
      };
    });
  }

  /** `other` is the total less the listed ones: chats beyond `limit` and those folded into other rows. */
  private async top(kind: store.SpendKind, range: MetricsRange, limit: number) {
    const { top, total } = await this.spenders(kind, range, limit);
    const other = { ...total };
    for (const row of top) {
      other.requests -= row.requests;
      other.tokens -= row.tokens;
      other.cost_usd -= row.cost_usd;
    }
    return {
      top: top.map((row) => ({ ...row, cost_usd: money(row.cost_usd) })),
      other: { ...other, cost_usd: money(Math.max(0, other.cost_usd)) },
      total: { ...total, cost_usd: money(total.cost_usd) },
    };
  }

  /**
   * The days' top list, their settled days' part (telemetry-store/settled-hours.ts) ranked once and kept in
   * the history cache: a range of settled days only is answered from it, and a range reaching into today
   * reads only the live days' rows beside it (`topSpendersSplit`).
   */
  private async spenders(kind: store.SpendKind, { fromDay, toDay }: MetricsRange, limit: number) {
    const liveFrom = store.firstLiveDay(this.now());
    if (fromDay >= liveFrom) return store.topSpenders(this.db, kind, fromDay, toDay, limit);
    const settledTo = toDay < liveFrom ? toDay : utcDay(Date.parse(liveFrom) - 1);
    const settled = async (depth: number) =>
      this.history.get(`top-${kind}:${fromDay}:${settledTo}:${depth}`, () =>
        store.topSpenders(this.db, kind, fromDay, settledTo, depth),
      );
    if (toDay < liveFrom) return settled(limit);
    return store.topSpendersSplit(this.db, kind, { fromDay, liveFrom, toDay }, limit, settled);
  }

  /** Error rate by provider and model, worst first, and failed calls and their rate by error type. */
  errors(query: LlmRangeQuery): Cached<LlmErrors> {
    const range = parseMetricsRange(query, this.now(), RANGE_RULES);
    return this.cache.get(`llm-errors:${range.from}:${range.to}`, async () => {
      const models = (await store.requestsByModel(this.db, range.from, range.to))
        .filter((row) => row.requests > 0)
        .map((row) => ({ ...row, error_rate: roundTo((row.failed_requests / row.requests) * 100, 2) }))
        .sort(
          (a, b) =>
            b.error_rate - a.error_rate ||
            b.requests - a.requests ||
            byName(a.provider, b.provider) ||
            byName(a.model, b.model),
        );
      const breakdown = (await store.errorsByType(this.db, range.from, range.to)).sort(
        (a, b) =>
          b.errors - a.errors ||
          byName(a.provider, b.provider) ||
          byName(a.model, b.model) ||
          byName(a.error_type, b.error_type),
      );
      const byType = new Map<string, number>();
      for (const row of breakdown) byType.set(row.error_type, (byType.get(row.error_type) ?? 0) + row.errors);
      const requests = models.reduce((sum, row) => sum + row.requests, 0);
      const errorTypes = [...byType.entries()]
        .map(([error_type, errors]) => ({
          error_type,
          errors,
          error_rate: requests === 0 ? 0 : roundTo((errors / requests) * 100, 2),
        }))
        .sort((a, b) => b.errors - a.errors || byName(a.error_type, b.error_type));
      return { from: range.from, to: range.to, models, error_types: errorTypes, breakdown };
    });
  }
}
