import { INGEST_LIMITS } from '@lumi/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { dropEventPartitionsBefore } from '../../db/event-partitions.js';
import { isPostgres } from '../../db/locks.js';
import { DAY_MS, hourKey, minuteKey } from '../../lib/hour-buckets.js';
import { isoAfter, type Clock } from '../../lib/time.js';
import { pruneEvents, RAW_TABLES } from './events.repository.js';
import { pruneFeedback } from './feedback.repository.js';
import { LIMIT_USAGE_KEEP_DAYS, pruneLimitUsage } from './limit-usage.repository.js';
import { pruneContents } from './llm-call-contents.repository.js';
import { pruneLatencies } from './latency.repository.js';
import { pruneDimensionRollups } from './llm-dimensions.repository.js';
import { pruneRollups } from './rollups.repository.js';
import type { TelemetrySettings } from './telemetry.settings.js';

/** The minute rollups serve alert windows of at most a day (ALERT_LIMITS.windowMinutesMax); two are kept. */
const MINUTE_ROLLUP_RETENTION_MS = 2 * DAY_MS;

/** The retention of the telemetry store: raw events past RETENTION_DAYS, rollups past 400 days. */
export class TelemetryRetentionService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: Clock,
    private readonly settings: TelemetrySettings,
    /**
     * Called after stored telemetry changed: every instance forgets its dashboard answers, and with
     * `history` their settled hours' parts too (settled-hours.ts).
     */
    private readonly telemetryChanged: (history?: boolean) => Promise<void>,
  ) {}

  /**
   * Removes raw events past RETENTION_DAYS, the content of calls past LUMI_CONTENT_RETENTION_DAYS, hourly
   * rollups past 400 days, minute rollups past two days and the limits' usage past 32 days; run by the retention job. SQLite
   * deletes the rows. PostgreSQL drops each day partition once the whole day is past (so a day's events
   * stay up to a day longer) and deletes only the few late events the default partitions hold.
   */
  async prune(): Promise<{
    events: number;
    rollups: number;
    minute_rollups: number;
    partitions: number;
    contents: number;
  }> {
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
    // The content of calls has a shorter life of its own (docs/operators/metrics.md, "Content of calls").
    const contents = await pruneContents(
      this.db,
      isoAfter(-Math.min(this.settings.contentRetentionDays, this.settings.retentionDays) * DAY_MS, now),
    );
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
    // The limits read at most a month back (docs/operators/limits.md, "What counts").
    await pruneLimitUsage(this.db, hourKey(now - LIMIT_USAGE_KEEP_DAYS * DAY_MS));
    // The dashboards read only hourly rollups: the minutes going changes none of their answers.
    if (events > 0 || rollups + latencies + dimensions > 0) await this.telemetryChanged(true);
    return { events, rollups: rollups + latencies, minute_rollups: minutes, partitions, contents };
  }
}
