import type { Kysely } from 'kysely';
import type { Database, Executor } from '../../db/database.js';
import type { UsageKind } from '../../db/limit-tables.js';
import { HOUR_MS, floorHour, hourKey, minuteKey } from '../../lib/hour-buckets.js';
import { isoTime, type Clock } from '../../lib/time.js';
import { limitUsageRows, recentCalls } from '../telemetry-store/telemetry-store.js';
import type { AppliedLimit } from './limit-book.js';
import { grantRows } from './limit-grants.repository.js';
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

interface HourSums {
  requests: number;
  tokens: number;
  cost_usd: number;
  granted: number;
}

/**
 * What one chat, user or feature used this month, read in two queries (three with the minute's calls)
 * and kept briefly: the stored usage and the calls admitted per hour, the calls admitted in the current
 * minute, and (for a chat or user whose limits count a minute) its calls of the current minute.
 */
interface Snapshot {
  hours: Map<number, HourSums>;
  minute: string;
  minuteGranted: number;
  recent: { requests: number; tokens: number; cost_usd: number } | null;
  expires: number;
}

/** How long a subject's snapshot answers before it is read again, and how many are kept. */
export const SNAPSHOT_TTL_MS = 1_000;
const SNAPSHOTS_MAX = 100_000;

const ZERO: HourSums = { requests: 0, tokens: 0, cost_usd: 0, granted: 0 };

/**
 * A window's cost or tokens: what ingestion stored, plus the calls admitted but not reported yet (grants
 * beyond the calls stored), each counted at the window's average cost per call. So a limit is reached a
 * little before its last calls are reported; the overshoot is bounded by the calls in flight.
 */
function withInFlight(usage: HourSums, reported: number): number {
  const inFlight = Math.max(0, usage.granted - usage.requests);
  return usage.requests > 0 ? reported + (inFlight * reported) / usage.requests : reported;
}

const requestsOf = (usage: HourSums) => Math.max(usage.granted, usage.requests);

function sumHours(snapshot: Snapshot, from: number, to: number): HourSums {
  const total = { ...ZERO };
  for (const [hour, sums] of snapshot.hours) {
    if (hour < from || hour >= to) continue;
    total.requests += sums.requests;
    total.tokens += sums.tokens;
    total.cost_usd += sums.cost_usd;
    total.granted += sums.granted;
  }
  return total;
}

/**
 * Reads the subjects' usage for the allowance and the limits' lists. A decision reads each subject it
 * names once (two or three queries, whatever its limits), and a subject asked about again within
 * SNAPSHOT_TTL_MS is answered from memory, with the calls this instance admitted since added. So cost and tokens may lag the
 * stored usage by that long; a request limit stays exact, as its grant is conditioned in the database
 * (allowance.service.ts).
 */
export class UsageReader {
  private readonly snapshots = new Map<string, Snapshot>();
  private readonly reading = new Map<string, Promise<Snapshot>>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly timezone: string,
    private readonly now: Clock,
  ) {}

  async standing(applied: AppliedLimit, now: number, db: Executor = this.db): Promise<Standing> {
    const [standing] = await this.standings([applied], now, db);
    return standing!;
  }

  /** The standings of several limits, each subject read once (with its minute's calls if one needs them). */
  async standings(applied: AppliedLimit[], now: number, db: Executor = this.db): Promise<Standing[]> {
    const subjects = new Map<string, { kind: UsageKind; subject: string; recent: boolean }>();
    for (const { kind, subject, limit } of applied) {
      const key = `${kind}|${subject}`;
      const recent = limit.window === 'minute' && kind !== 'feature';
      const known = subjects.get(key);
      if (known) known.recent ||= recent;
      else subjects.set(key, { kind, subject, recent });
    }
    const snapshots = new Map(
      [...subjects].map(([key, { kind, subject, recent }]) => [
        key,
        this.snapshot(kind, subject, recent, now, db),
      ]),
    );
    return Promise.all(
      applied.map(async (one) =>
        this.standingIn(await snapshots.get(`${one.kind}|${one.subject}`)!, one, now),
      ),
    );
  }

  /** Counts a call this instance admitted in the subject's snapshot, so its next check sees it at once. */
  admitted(kind: UsageKind, subject: string, now: number): void {
    const snapshot = this.snapshots.get(`${kind}|${subject}`);
    if (!snapshot) return;
    const hour = floorHour(now);
    const sums = snapshot.hours.get(hour) ?? { ...ZERO };
    sums.granted += 1;
    snapshot.hours.set(hour, sums);
    if (snapshot.minute === minuteKey(now)) snapshot.minuteGranted += 1;
  }

  /** Forgets every snapshot: new usage was stored (the `telemetry` invalidation). */
  forget(): void {
    this.snapshots.clear();
  }

  private standingIn(snapshot: Snapshot, applied: AppliedLimit, now: number): Standing {
    const { limit } = applied;
    const span = windowSpan(limit.window, now, this.timezone);
    if (limit.window === 'minute') {
      const calls = snapshot.recent;
      const granted = snapshot.minuteGranted;
      const used =
        limit.metric === 'requests'
          ? Math.max(granted, calls?.requests ?? 0)
          : limit.metric === 'tokens'
            ? (calls?.tokens ?? 0)
            : (calls?.cost_usd ?? 0);
      return { applied, span, used, before: 0 };
    }
    const current = floorHour(now);
    if (limit.metric === 'requests') {
      const before = requestsOf(sumHours(snapshot, span.start, current));
      const latest = requestsOf(sumHours(snapshot, current, current + HOUR_MS));
      return { applied, span, used: before + latest, before };
    }
    const usage = sumHours(snapshot, span.start, span.end);
    const reported = limit.metric === 'tokens' ? usage.tokens : usage.cost_usd;
    return { applied, span, used: withInFlight(usage, reported), before: 0 };
  }

  /**
   * The subject's snapshot: from memory while it is fresh (and, inside a transaction, never: a write's
   * checks read what the transaction sees), else read since the start of the month, the longest window.
   */
  private async snapshot(
    kind: UsageKind,
    subject: string,
    needsRecent: boolean,
    now: number,
    db: Executor,
  ): Promise<Snapshot> {
    const key = `${kind}|${subject}`;
    const cached = db === this.db ? this.snapshots.get(key) : undefined;
    if (
      cached &&
      cached.expires > this.now() &&
      cached.minute === minuteKey(now) &&
      (!needsRecent || cached.recent)
    ) {
      return cached;
    }
    if (db !== this.db) return this.read(kind, subject, now, needsRecent, db);
    // Of parallel decisions on one subject, the first reads and the rest wait for it.
    const pending = this.reading.get(key);
    if (pending && !needsRecent) return pending;
    const reading = this.read(kind, subject, now, needsRecent, db).finally(() => {
      if (this.reading.get(key) === reading) this.reading.delete(key);
    });
    this.reading.set(key, reading);
    const snapshot = await reading;
    if (this.snapshots.size >= SNAPSHOTS_MAX) this.snapshots.delete(this.snapshots.keys().next().value!);
    this.snapshots.delete(key);
    this.snapshots.set(key, snapshot);
    return snapshot;
  }

  private async read(
    kind: UsageKind,
    subject: string,
    now: number,
    needsRecent: boolean,
    db: Executor,
  ): Promise<Snapshot> {
    const minute = minuteKey(now);
    const month = windowSpan('month', now, this.timezone);
    const from = hourKey(month.start);
    const [usage, grants, recent] = await Promise.all([
      limitUsageRows(this.db, kind, subject, from, db),
      grantRows(this.db, kind, subject, from, minute, db),
      needsRecent
        ? recentCalls(
            this.db,
            kind as 'chat' | 'user',
            subject,
            isoTime(Math.floor(now / 60_000) * 60_000),
            db,
          )
        : null,
    ]);
    const hours = new Map<number, HourSums>();
    for (const row of usage) {
      hours.set(Date.parse(row.bucket), {
        requests: row.requests,
        tokens: row.tokens,
        cost_usd: row.cost_usd,
        granted: 0,
      });
    }
    let minuteGranted = 0;
    for (const row of grants) {
      if (row.grain === 'minute') {
        minuteGranted = row.granted;
        continue;
      }
      const hour = Date.parse(row.bucket);
      const sums = hours.get(hour) ?? { ...ZERO };
      sums.granted = row.granted;
      hours.set(hour, sums);
    }
    return { hours, minute, minuteGranted, recent, expires: this.now() + SNAPSHOT_TTL_MS };
  }
}
