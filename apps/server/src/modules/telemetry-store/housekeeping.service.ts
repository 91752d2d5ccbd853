import { LLM_TOP_PER_DAY } from '@lumi/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { ensureEventPartitions, utcDay } from '../../db/event-partitions.js';
import { isPostgres } from '../../db/locks.js';
import { hourKey } from '../../lib/hour-buckets.js';
import type { Clock } from '../../lib/time.js';
import { LATENCY_KINDS } from './latency-histograms.js';
import { daysToFold, foldLatencyDay } from './latency.repository.js';
import { SPEND_KINDS } from './llm-dimensions.js';
import { daysOverBound, foldDay } from './llm-dimensions.repository.js';

/**
 * The telemetry store's housekeeping, run by the housekeeping job: PostgreSQL's event partitions made ahead,
 * the finished hours' latency histograms folded, the finished days' chat and user rollups bounded. None of it
 * changes an answer of the dashboards but the bound (docs/operators/metrics.md, "The bound").
 */
export class TelemetryHousekeepingService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: Clock,
    /** Called after folding changed stored rollups: every instance forgets its dashboard answers. */
    private readonly telemetryChanged: (history?: boolean) => Promise<void>,
  ) {}

  /** PostgreSQL: creates the event partitions of today and the next days where missing; returns how many. */
  async maintainPartitions(): Promise<number> {
    return isPostgres(this.db) ? ensureEventPartitions(this.db, this.now()) : 0;
  }

  /**
   * Folds the finished hours' histograms into one row per hour and key and per UTC day and key (one
   * transaction per day), so long ranges read few rows; answers are unchanged.
   */
  async foldFinishedHours(): Promise<{ latency_rows_folded: number }> {
    const before = hourKey(this.now());
    let rows = 0;
    for (const kind of LATENCY_KINDS) {
      for (const day of await daysToFold(this.db, kind, before)) {
        rows += await this.db.transaction().execute((trx) => foldLatencyDay(trx, kind, day, before));
      }
    }
    return { latency_rows_folded: rows };
  }

  /**
   * The bound (docs/operators/metrics.md, "The bound"): every finished UTC day keeps its top 1,000 chats
   * (users) by cost and one row summing the rest, so it holds at most 1,001 rows. Today may hold more
   * until it ends. Each day is folded in a transaction of its own; a late event for a folded day adds a
   * row that the next run folds again.
   */
  async compactFinishedDays(): Promise<{ days_folded: number; rows_folded: number }> {
    const today = utcDay(this.now());
    let days = 0;
    let rows = 0;
    for (const kind of SPEND_KINDS) {
      for (const day of await daysOverBound(this.db, kind, today, LLM_TOP_PER_DAY)) {
        rows += await this.db.transaction().execute((trx) => foldDay(trx, kind, day, LLM_TOP_PER_DAY));
        days += 1;
      }
    }
    // The totals are unchanged, but a chat folded away no longer counts on its own in a range.
    if (rows > 0) await this.telemetryChanged(true);
    return { days_folded: days, rows_folded: rows };
  }
}
