import type { Kysely } from 'kysely';
import type { Database, Executor } from '../../db/database.js';
import type { UsageKind } from '../../db/limit-tables.js';
import { HOUR_MS, floorHour, hourKey, minuteKey } from '../../lib/hour-buckets.js';
import { isoTime } from '../../lib/time.js';
import type { AppliedLimit } from './limit-book.js';
import { readUsage, recentCalls, type SubjectUsage } from '../telemetry-store/telemetry-store.js';
import { grantedBetween } from './limit-grants.repository.js';
import { windowSpan, type WindowSpan } from './limit-windows.js';

/** One limit's standing for one subject now (docs/operators/limits.md, "What counts"). */
export interface Standing {
  applied: AppliedLimit;
  span: WindowSpan;
  used: number;
  /**
   * For a request limit: what the window used before its current bucket (the minute, or the hour), so the
   * grant in the current bucket can be conditioned on the rest: `amount - before`.
   */
  before: number;
}

/**
 * A window's cost or tokens: what ingestion stored, plus the calls admitted but not reported yet (grants
 * beyond the calls stored), each counted at the window's average cost per call. So a limit is reached a
 * little before its last calls are reported; the overshoot is bounded by the calls in flight.
 */
type Usage = SubjectUsage & { granted: number };

function withInFlight(usage: Usage, reported: number): number {
  const inFlight = Math.max(0, usage.granted - usage.requests);
  return usage.requests > 0 ? reported + (inFlight * reported) / usage.requests : reported;
}

const requestsOf = (usage: Usage) => Math.max(usage.granted, usage.requests);

export class UsageReader {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly timezone: string,
  ) {}

  /** What ingestion stored over whole hours, and the calls admitted in them. */
  private async hours(
    db: Executor,
    kind: UsageKind,
    subject: string,
    from: string,
    to: string,
  ): Promise<Usage> {
    const [usage, granted] = await Promise.all([
      readUsage(db, kind, subject, from, to),
      grantedBetween(db, kind, subject, 'hour', from, to),
    ]);
    return { ...usage, granted };
  }

  async standing(applied: AppliedLimit, now: number, db: Executor = this.db): Promise<Standing> {
    const { limit, kind, subject } = applied;
    const span = windowSpan(limit.window, now, this.timezone);
    if (limit.window === 'minute') {
      const minute = minuteKey(now);
      const granted = await grantedBetween(db, kind, subject, 'minute', minute, minuteKey(now + 60_000));
      if (kind === 'feature') return { applied, span, used: granted, before: 0 };
      const calls = await recentCalls(db, kind, subject, isoTime(span.start));
      const used =
        limit.metric === 'requests'
          ? Math.max(granted, calls.requests)
          : limit.metric === 'tokens'
            ? calls.tokens
            : calls.cost_usd;
      return { applied, span, used, before: 0 };
    }
    const current = floorHour(now);
    const from = hourKey(span.start);
    const hour = hourKey(current);
    const next = hourKey(current + HOUR_MS);
    if (limit.metric === 'requests') {
      const [earlier, latest] = await Promise.all([
        span.start < current ? this.hours(db, kind, subject, from, hour) : null,
        this.hours(db, kind, subject, hour, next),
      ]);
      const before = earlier ? requestsOf(earlier) : 0;
      return { applied, span, used: before + requestsOf(latest), before };
    }
    const usage = await this.hours(db, kind, subject, from, hourKey(span.end));
    const reported = limit.metric === 'tokens' ? usage.tokens : usage.cost_usd;
    return { applied, span, used: withInFlight(usage, reported), before: 0 };
  }
}
