import { INGEST_LIMITS, type IngestResult } from '@lumi/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { dropEventPartitionsBefore, ensureEventPartitions } from '../../db/event-partitions.js';
import { isPostgres } from '../../db/locks.js';
import { AppError } from '../../lib/errors.js';
import { DAY_MS, hourKey } from '../../lib/hour-buckets.js';
import { isoAfter, type Clock } from '../../lib/time.js';
import type { IngestWriter } from './ingest-writer.js';
import { pruneLatencies } from './latency-histograms.js';
import { pruneDimensionRollups } from './llm-dimensions.repository.js';
import { minuteKey } from './rollup-aggregation.js';
import { pruneRollups } from './rollups.repository.js';
import { reachesSettledHours } from './settled-hours.js';
import { pruneFeedback } from './feedback.repository.js';
import { pruneEvents, RAW_TABLES } from './telemetry.repository.js';
import type { TelemetrySettings } from './telemetry.settings.js';

/** The minute rollups serve alert windows of at most a day (ALERT_LIMITS.windowMinutesMax); two are kept. */
const MINUTE_ROLLUP_RETENTION_MS = 2 * DAY_MS;

/**
 * Whether a batch may have changed settled hours (`reachesSettledHours`) with an event of it, stored or not.
 * Read from the batch as sent, so it errs only towards clearing more.
 */
function reachesBack(raw: unknown[], now: number): boolean {
  return raw.some((entry) => {
    const ts = typeof entry === 'object' && entry !== null ? (entry as { ts?: unknown }).ts : undefined;
    return typeof ts === 'string' && reachesSettledHours(Date.parse(ts), now);
  });
}

/** Ingestion (docs/bot-developers/ingestion.md) and the retention of raw events and rollups. */
export class TelemetryService {
  constructor(
    private readonly db: Kysely<Database>,
    /** Where batches are checked and stored (ingest-writer.ts). */
    private readonly writer: IngestWriter,
    private readonly now: Clock,
    private readonly settings: TelemetrySettings,
    /**
     * Called after stored telemetry changed: every instance forgets its dashboard answers, and with
     * `history` their settled hours' parts too (settled-hours.ts).
     */
    private readonly telemetryChanged: (history?: boolean) => Promise<void>,
  ) {}

  /**
   * Checks and stores one batch (ingest-batch.ts) through the writer: in this thread, or in the SQLite
   * ingest worker. Once it has committed, every instance forgets its dashboard answers, so the next read
   * anywhere sees the events.
   */
  async ingest(raw: unknown[]): Promise<IngestResult> {
    const now = this.now();
    let result: IngestResult;
    try {
      result = await this.writer.ingest(raw, now);
    } catch (error) {
      // The worker may have stopped after its commit, before it answered: a retry would then find every
      // event a duplicate and clear nothing, so the answers are forgotten now. A refusal stored nothing.
      if (!(error instanceof AppError)) await this.telemetryChanged(reachesBack(raw, now));
      throw error;
    }
    if (result.accepted > 0) await this.telemetryChanged(reachesBack(raw, now));
    return result;
  }

  /**
   * Waits for the batches being stored and stops the writer; at shutdown, once nothing is left to report
   * (server.ts). Ingestion refuses batches after it.
   */
  close(): Promise<void> {
    return this.writer.close();
  }

  /**
   * Removes raw events past RETENTION_DAYS, hourly rollups past 400 days and minute rollups past two days;
   * run by the retention job. SQLite
   * deletes the rows. PostgreSQL drops each day partition once the whole day is past (so a day's events
   * stay up to a day longer) and deletes only the few late events the default partitions hold.
   */
  async prune(): Promise<{ events: number; rollups: number; minute_rollups: number; partitions: number }> {
    const now = this.now();
    const before = isoAfter(-this.settings.retentionDays * DAY_MS, now);
    let events: number;
    let partitions = 0;
    if (isPostgres(this.db)) {
      const dropped = await dropEventPartitionsBefore(this.db, before);
      const late = await pruneEvents(
        this.db,
        before,
        RAW_TABLES.map((table) => `${table}_default`),
      );
      events = dropped.events + late;
      partitions = dropped.partitions;
    } else {
      events = await pruneEvents(this.db, before);
    }
    events += await pruneFeedback(this.db, before);
    const rollups = await pruneRollups(
      this.db,
      'hour',
      hourKey(now - INGEST_LIMITS.rollupRetentionDays * DAY_MS),
    );
    const latencies = await pruneLatencies(
      this.db,
      hourKey(now - INGEST_LIMITS.rollupRetentionDays * DAY_MS),
    );
    const dimensions = await pruneDimensionRollups(
      this.db,
      hourKey(now - INGEST_LIMITS.rollupRetentionDays * DAY_MS),
    );
    const minutes = await pruneRollups(this.db, 'minute', minuteKey(now - MINUTE_ROLLUP_RETENTION_MS));
    // The dashboards read only hourly rollups: the minutes going changes none of their answers.
    if (events > 0 || rollups + latencies + dimensions > 0) await this.telemetryChanged(true);
    return { events, rollups: rollups + latencies, minute_rollups: minutes, partitions };
  }

  /** PostgreSQL: creates the event partitions of today and the next days where missing; returns how many. */
  async maintainPartitions(): Promise<number> {
    return isPostgres(this.db) ? ensureEventPartitions(this.db, this.now()) : 0;
  }
}
