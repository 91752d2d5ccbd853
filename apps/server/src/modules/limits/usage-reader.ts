import type { Kysely } from 'kysely';
import type { Database, Executor } from '../../db/database.js';
import type { UsageKind } from '../../db/limit-tables.js';
import { HOUR_MS, MINUTE_MS, floorHour } from '../../lib/hour-buckets.js';
import { isPostgres } from '../../db/locks.js';
import type { Clock } from '../../lib/time.js';
import { limitUsageRowsNow, recentCallsNow } from '../telemetry-store/telemetry-store.js';
import { bucketNames } from './bucket-names.js';
import type { CountedInMemory } from './exact-grants.js';
import type { AppliedLimit } from './limit-book.js';
import { grantRowsNow, grantsAsked } from './limit-grants.repository.js';
import type { GrantKey } from './limit-events.js';
import { groupStatement, needingRecent, snapshotRows } from './usage-rows.repository.js';
import { requestsOf, snapshotSpan, sumHours, withInFlight, ZERO, type Snapshot } from './usage-snapshot.js';
import { windowSpan, type WindowSpan } from './limit-windows.js';
import type { UsageMirror } from './usage-mirror.js';

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
  /** For a request limit: the calls admitted in its current bucket (the minute, or the hour). */
  granted: number;
}

/** The grants this instance counted and has not stored yet (limit-events.ts). */
export interface Unstored {
  pending(key: GrantKey): number;
  /** Changes whenever some of them were stored. */
  readonly storedParts: number;
}

/** A subject's snapshot, and its grants counted in memory (countedIn). */
interface Counted {
  snapshot: Snapshot;
  /** The current minute's grants. */
  minute: number;
  /** Hours whose grants stand in for the snapshot's: [hour, grants]. */
  hours: [number, number][];
}

/** How long a subject's snapshot answers before it is read again, and how many are kept. */
export const SNAPSHOT_TTL_MS = 1_000;
const SNAPSHOTS_MAX = 100_000;

/**
 * PostgreSQL: how many groups of subjects are read at once, and how many subjects a group holds at most. A
 * statement costs PostgreSQL and the server more than the lookups in it, so the subjects asked for while a
 * group is being read wait for the next one (as a group commit does): at 2,000 checks a second, two groups at
 * once made groups of about one check, and p99 twice as long (docs/benchmarks.md, "Allowance").
 */
const READS_AT_ONCE = 1;
const READ_GROUP_MAX = 200;

interface SubjectWanted {
  kind: UsageKind;
  subject: string;
  needsRecent: boolean;
  now: number;
}

/**
 * Reads the subjects' usage for the allowance and the limits' lists. A decision reads each subject it
 * names once (two or three queries on SQLite, whatever its limits; on PostgreSQL one statement with the
 * subjects other decisions ask about meanwhile), and a subject asked about again within SNAPSHOT_TTL_MS is
 * answered from memory, with the calls this instance admitted since added. So cost and tokens may lag the
 * stored usage by that long; a request limit stays exact, as its grant is counted exactly (exact-grants.ts).
 */
export class UsageReader {
  private readonly snapshots = new Map<string, Snapshot>();
  private readonly reading = new Map<string, Promise<Snapshot>>();
  /** PostgreSQL: subjects waiting to be read with the next group, and how many groups are being read. */
  private readonly grouped: boolean;
  private readonly waiting: (SubjectWanted & {
    done: (snapshot: Snapshot) => void;
    fail: (error: unknown) => void;
  })[] = [];
  private readsRunning = 0;
  /**
   * PostgreSQL: checks' exact grants to be taken in the statement that reads the checks' subjects (`keys`)
   * (takeWithRead), and whether a read is due once the current turn is over (readSoon).
   */
  private riding: {
    grants: { key: GrantKey; below: number }[];
    keys: string[];
    done: (full: number | null) => void;
    fail: (error: unknown) => void;
  }[] = [];
  private readScheduled = false;
  /** How many times counts kept in memory were let go of. */
  private letGo = 0;
  /**
   * The month's stored usage and grants in memory, which a snapshot is made from once loaded (SQLite, and
   * PostgreSQL while this instance is the only one on the database).
   */
  private mirror: UsageMirror | null = null;
  private exact: CountedInMemory = { countedNow: () => undefined, countedHours: () => [] };
  private unstored: Unstored = { pending: () => 0, storedParts: 0 };

  constructor(
    private readonly db: Kysely<Database>,
    private readonly timezone: string,
    private readonly now: Clock,
  ) {
    this.grouped = isPostgres(db);
  }

  async standing(applied: AppliedLimit, now: number, db: Executor = this.db): Promise<Standing> {
    const [standing] = await this.standings([applied], now, db);
    return standing!;
  }

  /** The standings of several limits, each subject read once (with its minute's calls if one needs them). */
  async standings(applied: AppliedLimit[], now: number, db: Executor = this.db): Promise<Standing[]> {
    // Each subject once, and for each limit its subject's place among them.
    const subjects: { kind: UsageKind; subject: string; recent: boolean }[] = [];
    const places = new Map<string, number>();
    const placeOf = applied.map(({ kind, subject, limit }) => {
      const recent = limit.window === 'minute' && kind !== 'feature';
      const key = `${kind}|${subject}`;
      let place = places.get(key);
      if (place === undefined) {
        place = subjects.push({ kind, subject, recent }) - 1;
        places.set(key, place);
      } else subjects[place]!.recent ||= recent;
      return place;
    });
    for (;;) {
      const letGo = this.letGo;
      const asked = subjects.map(({ kind, subject, recent }) =>
        this.snapshot(kind, subject, recent, now, db),
      );
      // Read at once (SQLite) or from memory, no promise is waited for.
      const read = asked.some((one) => one instanceof Promise)
        ? await Promise.all(asked)
        : (asked as Snapshot[]);
      // Worked out at once from what was read, unless counts were let go of meanwhile (countsLetGo).
      if (letGo !== this.letGo) continue;
      const counted = subjects.map(({ kind, subject }, i) => this.countedIn(read[i]!, kind, subject, now));
      return applied.map((one, i) => this.standingIn(counted[placeOf[i]!]!, one, now));
    }
  }

  /**
   * Where the request limits' counts this instance keeps in memory are (exact-grants.ts), and the calls it
   * admitted whose grants are not stored yet (limit-events.ts): a standing counts both in.
   */
  countWith(exact: CountedInMemory, unstored: Unstored): void {
    this.exact = exact;
    this.unstored = unstored;
  }

  /**
   * Where a check's usage comes from: the mirror in memory, the mirror still loading (the database
   * meanwhile), or the database (PostgreSQL).
   */
  get source(): 'memory' | 'loading' | 'database' {
    if (this.mirror?.loaded) return 'memory';
    return this.mirror?.loading ? 'loading' : 'database';
  }

  /** Makes snapshots from `mirror` while it is loaded, instead of reading the database. */
  mirrorWith(mirror: UsageMirror): void {
    this.mirror = mirror;
  }

  /**
   * PostgreSQL: counts a grant the database just took in the subject's snapshot, if one is kept, so its
   * next check sees it without reading again.
   */
  taken(key: GrantKey): void {
    const snapshot = this.snapshots.get(`${key.kind}|${key.subject}`);
    if (!snapshot) return;
    if (key.grain === 'minute') {
      if (snapshot.minute === key.bucket) snapshot.minuteGranted += 1;
      return;
    }
    const hour = Date.parse(key.bucket);
    const holds = ({ from, to }: { from: number; to: number }) => hour >= from && hour < to;
    if (snapshot.settled.some(holds)) snapshot.settled = snapshot.settled.filter((range) => !holds(range));
    const sums = snapshot.hours.get(hour) ?? { ...ZERO };
    sums.granted += 1;
    snapshot.hours.set(hour, sums);
  }

  /**
   * Forgets every snapshot, and the reads under way for checks to join: new usage was stored (the
   * `telemetry` invalidation).
   */
  forget(): void {
    this.snapshots.clear();
    this.reading.clear();
  }

  /**
   * Forgets the snapshots of some chats, users and features, and their reads under way: a part of the grants
   * pending here was stored (allowance.service.ts), which they may count twice or, read before, nowhere.
   */
  forgetSubjects(subjects: readonly { kind: UsageKind; subject: string }[]): void {
    for (const { kind, subject } of subjects) {
      const key = `${kind}|${subject}`;
      this.snapshots.delete(key);
      this.reading.delete(key);
    }
  }

  /**
   * Forgets every snapshot, and has a read under way read again: counts kept in memory (`countWith`) were let
   * go of once stored, and a read made before they were stored would count them nowhere.
   */
  countsLetGo(): void {
    this.snapshots.clear();
    this.reading.clear();
    this.letGo += 1;
  }

  /**
   * A subject's snapshot with the grants counted in memory standing in for those read: the request limits'
   * counts held here (exact-grants.ts) in place of their buckets', and the calls admitted whose grants are not
   * stored yet (limit-events.ts) added to their minute's and hour's, so a call counts from the moment it is
   * admitted, however often its subject is read again before its grant is written.
   */
  private countedIn(snapshot: Snapshot, kind: UsageKind, subject: string, now: number): Counted {
    const names = bucketNames(now);
    const minute =
      this.exact.countedNow(kind, subject, 'minute', now) ??
      snapshot.minuteGranted +
        this.unstored.pending({ kind, subject, grain: 'minute', bucket: names.minute });
    const hours = this.exact.countedHours(kind, subject);
    const current = floorHour(now);
    this.pendingHour(hours, snapshot, kind, subject, current - HOUR_MS, names.previousHour);
    this.pendingHour(hours, snapshot, kind, subject, current, names.hour);
    return { snapshot, minute, hours };
  }

  /** Adds an hour's grants to `hours` with those not stored yet, unless its count is held in memory. */
  private pendingHour(
    hours: [number, number][],
    snapshot: Snapshot,
    kind: UsageKind,
    subject: string,
    hour: number,
    bucket: string,
  ) {
    for (const [held] of hours) if (held === hour) return;
    const pending = this.unstored.pending({ kind, subject, grain: 'hour', bucket });
    if (pending !== 0) hours.push([hour, (snapshot.hours.get(hour)?.granted ?? 0) + pending]);
  }

  private standingIn(
    { snapshot, minute: granted, hours: counted }: Counted,
    applied: AppliedLimit,
    now: number,
  ): Standing {
    const { limit } = applied;
    const span = windowSpan(limit.window, now, this.timezone);
    if (limit.window === 'minute') {
      const calls = snapshot.recent;
      const used =
        limit.metric === 'requests'
          ? Math.max(granted, calls?.requests ?? 0)
          : limit.metric === 'tokens'
            ? (calls?.tokens ?? 0)
            : (calls?.cost_usd ?? 0);
      return { applied, span, used, before: 0, granted };
    }
    const current = floorHour(now);
    if (limit.metric === 'requests') {
      const before = requestsOf(sumHours(snapshot, span.start, current, current, counted));
      const latest = sumHours(snapshot, current, current + HOUR_MS, current, counted);
      return { applied, span, used: before + requestsOf(latest), before, granted: latest.granted };
    }
    const usage = sumHours(snapshot, span.start, span.end, current, counted);
    const reported = limit.metric === 'tokens' ? usage.tokens : usage.cost_usd;
    return { applied, span, used: withInFlight(usage, reported), before: 0, granted: 0 };
  }

  /**
   * The subject's snapshot: from memory while it is fresh (and, inside a transaction, never: a write's
   * checks read what the transaction sees), else read since the start of the month, the longest window: at
   * once on SQLite outside a transaction, else through a promise.
   */
  private snapshot(
    kind: UsageKind,
    subject: string,
    needsRecent: boolean,
    now: number,
    db: Executor,
  ): Snapshot | Promise<Snapshot> {
    if (this.mirror && db === this.db) {
      const mirrored = this.mirrored(this.mirror, kind, subject, needsRecent, now);
      if (mirrored) return mirrored;
    }
    const key = `${kind}|${subject}`;
    const cached = db === this.db ? this.snapshots.get(key) : undefined;
    if (
      cached &&
      cached.expires > this.now() &&
      cached.minute === bucketNames(now).minute &&
      (!needsRecent || cached.recent)
    ) {
      return cached;
    }
    if (db !== this.db) return this.read(kind, subject, now, needsRecent, db);
    const atOnce = this.grouped ? undefined : this.readAllNow([{ kind, subject, needsRecent, now }])?.[0];
    if (atOnce) return this.keep(key, atOnce);
    return this.readKept(key, kind, subject, now, needsRecent);
  }

  /**
   * A subject's snapshot from the mirror, with its minute's calls read at once if it needs them; undefined
   * when either cannot be had (the database is read instead).
   */
  private mirrored(
    mirror: UsageMirror,
    kind: UsageKind,
    subject: string,
    needsRecent: boolean,
    now: number,
  ): Snapshot | undefined {
    const snapshot = mirror.snapshot(kind, subject, now);
    if (!snapshot || !needsRecent || kind === 'feature') return snapshot;
    // Held by the mirror where the ingest worker tells of them, else read at once (SQLite).
    const recent =
      mirror.recent(kind, subject, now) ??
      recentCallsNow(this.db, kind, [subject], snapshot.minute)?.get(subject);
    // On a copy: the mirror may answer other checks with the same snapshot.
    return recent && { ...snapshot, recent };
  }

  /** A snapshot read through a promise, kept unless counts were let go of meanwhile. */
  private async readKept(
    key: string,
    kind: UsageKind,
    subject: string,
    now: number,
    needsRecent: boolean,
  ): Promise<Snapshot> {
    // Of parallel decisions on one subject, the first reads and the rest wait for it.
    const pending = this.reading.get(key);
    if (pending && !needsRecent) return pending;
    const reading = this.read(kind, subject, now, needsRecent, this.db).finally(() => {
      if (this.reading.get(key) === reading) this.reading.delete(key);
    });
    this.reading.set(key, reading);
    const letGo = this.letGo;
    const storedParts = this.unstored.storedParts;
    const snapshot = await reading;
    // PostgreSQL: kept as its group was read (readWaiting).
    if (this.grouped) return snapshot;
    // Read before counts were let go of (countsLetGo), or while grants were stored: it may count them
    // nowhere, so it is not kept.
    if (letGo !== this.letGo || storedParts !== this.unstored.storedParts) return snapshot;
    return this.keep(key, snapshot);
  }

  /** Keeps a snapshot read, dropping those past their time. */
  private keep(key: string, snapshot: Snapshot): Snapshot {
    // Oldest first, as they were stored: those past their time go, so a million chats asked about at
    // random leave a second's worth in memory, not SNAPSHOTS_MAX (a large heap makes every collection slow).
    const stale = this.now();
    for (const [oldest, { expires }] of this.snapshots) {
      if (expires > stale && this.snapshots.size < SNAPSHOTS_MAX) break;
      this.snapshots.delete(oldest);
    }
    this.snapshots.delete(key);
    this.snapshots.set(key, snapshot);
    return snapshot;
  }

  /** One subject's snapshot: on PostgreSQL with the others asked for meanwhile (one statement for all). */
  private read(
    kind: UsageKind,
    subject: string,
    now: number,
    needsRecent: boolean,
    db: Executor,
  ): Promise<Snapshot> {
    const wanted = { kind, subject, needsRecent, now };
    if (db !== this.db || !this.grouped) return this.readAll([wanted], db).then(([one]) => one!);
    return new Promise((done, fail) => {
      this.waiting.push({ ...wanted, done, fail });
      this.readSoon();
    });
  }

  /**
   * PostgreSQL: takes a check's exact grants, all or none (exact-grants.ts says how), in the statement of the
   * next group read, which the check's own read joins when it is asked for in the same turn of the event
   * loop; resolves to the position among them of one without room, else null. SQLite counts them in memory
   * instead (exact-grants.ts).
   */
  takeWithRead(
    grants: { key: GrantKey; below: number }[],
    subjects: { kind: UsageKind; subject: string }[],
  ): Promise<number | null> {
    if (!this.grouped) throw new Error('Grants are taken with a read on PostgreSQL only');
    const keys = subjects.map(({ kind, subject }) => `${kind}|${subject}`);
    return new Promise((done, fail) => {
      this.riding.push({ grants, keys, done, fail });
      this.readSoon();
    });
  }

  /**
   * Reads what is waiting once the current turn of the event loop is over: a check asks for each of its
   * subjects in turn, and all of them, with its grants, go in one statement.
   */
  private readSoon() {
    if (this.readScheduled) return;
    this.readScheduled = true;
    queueMicrotask(() => {
      this.readScheduled = false;
      this.readWaiting();
    });
  }

  /**
   * Reads what is waiting, a group a statement with the grants riding along (usage-rows.repository.ts,
   * groupStatement), while fewer than READS_AT_ONCE run.
   */
  private readWaiting() {
    while ((this.waiting.length > 0 || this.riding.length > 0) && this.readsRunning < READS_AT_ONCE) {
      // A group reads one minute's grants and calls: one asked about in the next minute waits for the next.
      const minute = Math.floor((this.waiting[0]?.now ?? 0) / MINUTE_MS);
      const next = this.waiting.findIndex((w) => Math.floor(w.now / MINUTE_MS) !== minute);
      const group = this.waiting.splice(0, Math.min(READ_GROUP_MAX, next < 0 ? Infinity : next));
      // A check's grants go with the last of its subjects' reads (a group holds READ_GROUP_MAX at most), so
      // the reads see none of them (groupStatement).
      const later = new Set(this.waiting.map(({ kind, subject }) => `${kind}|${subject}`));
      const riders: typeof this.riding = [];
      const staying: typeof this.riding = [];
      for (const rider of this.riding) {
        const waits = rider.keys.some((key) => later.has(key));
        (waits ? staying : riders).push(rider);
      }
      this.riding = staying;
      const read = group.length > 0 ? { asked: group, span: this.span(group) } : undefined;
      const take = riders.length > 0 ? grantsAsked(riders.map(({ grants }) => grants)) : undefined;
      this.readsRunning += 1;
      const letGo = this.letGo;
      const storedParts = this.unstored.storedParts;
      groupStatement(this.db, read, take)
        .then(
          (outcome) => {
            const snapshots = read ? this.built(group, read.span, outcome.read!) : [];
            // Kept before the riders go on, so the grants they took land in these (taken), not in those
            // these replace; unless counts were let go of or grants stored meanwhile (readKept).
            if (letGo === this.letGo && storedParts === this.unstored.storedParts) {
              group.forEach(({ kind, subject }, i) => this.keep(`${kind}|${subject}`, snapshots[i]!));
            }
            group.forEach(({ done }, i) => done(snapshots[i]!));
            riders.forEach(({ done }, i) => done(outcome.refused!.get(i) ?? null));
          },
          (error: unknown) => {
            for (const { fail } of [...group, ...riders]) fail(error);
          },
        )
        .finally(() => {
          this.readsRunning -= 1;
          this.readWaiting();
        });
    }
  }

  /**
   * Where several subjects' snapshots are read from (all of them asked about in one minute, readWaiting).
   */
  private span(wanted: SubjectWanted[]) {
    return snapshotSpan(wanted[0]!.now, this.timezone);
  }

  /**
   * Snapshots of several subjects read at once (SQLite, outside a transaction), or undefined: their hours,
   * their grants, and the minute's calls of those that need them.
   */
  private readAllNow(wanted: SubjectWanted[]): Snapshot[] | undefined {
    const span = this.span(wanted);
    const usage = limitUsageRowsNow(this.db, wanted, span.from, span.cut);
    const grants = usage && grantRowsNow(this.db, wanted, span.from, span.cut, span.minute);
    if (!usage || !grants) return undefined;
    // The minute's calls: those since its start, which is the minute's bucket name.
    const recent = (kind: 'chat' | 'user') => {
      const subjects = needingRecent(wanted, kind);
      return subjects.length > 0 ? recentCallsNow(this.db, kind, subjects, span.minute) : null;
    };
    const chats = recent('chat');
    const users = recent('user');
    if (chats === undefined || users === undefined) return undefined;
    return this.built(wanted, span, { usage, grants, chats, users });
  }

  /**
   * Snapshots of several subjects, read since the start of the month (the longest window): their hours
   * (summed before the day's, usage-snapshot.ts), their grants, and the minute's calls of those that need
   * them (usage-rows.repository.ts).
   */
  private async readAll(wanted: SubjectWanted[], db: Executor): Promise<Snapshot[]> {
    const span = this.span(wanted);
    return this.built(wanted, span, await snapshotRows(this.db, wanted, span, db));
  }

  /** The snapshots of what was read. */
  private built(
    wanted: SubjectWanted[],
    { minute, earlierFrom, earlierTo }: ReturnType<UsageReader['span']>,
    { usage, grants, chats, users }: Awaited<ReturnType<typeof snapshotRows>>,
  ): Snapshot[] {
    const expires = this.now() + SNAPSHOT_TTL_MS;
    const snapshots = new Map<string, Snapshot>();
    for (const { kind, subject, needsRecent } of wanted) {
      const recent = needsRecent ? ((kind === 'chat' ? chats : users)?.get(subject) ?? null) : null;
      const snapshot: Snapshot = {
        earlier: { from: earlierFrom, to: earlierTo, sums: { ...ZERO } },
        hours: new Map(),
        settled: [],
        minute,
        minuteGranted: 0,
        recent,
        expires,
      };
      snapshots.set(`${kind}|${subject}`, snapshot);
    }
    for (const row of usage) {
      const snapshot = snapshots.get(`${row.kind}|${row.subject}`)!;
      const sums = { requests: row.requests, tokens: row.tokens, cost_usd: row.cost_usd, granted: 0 };
      if (row.bucket === null) snapshot.earlier.sums = sums;
      else snapshot.hours.set(Date.parse(row.bucket), sums);
    }
    for (const row of grants) {
      const snapshot = snapshots.get(`${row.kind}|${row.subject}`)!;
      if (row.grain === 'minute') {
        snapshot.minuteGranted = row.granted;
        continue;
      }
      if (row.bucket === null) {
        snapshot.earlier.sums.granted = row.granted;
        continue;
      }
      const hour = Date.parse(row.bucket);
      const sums = snapshot.hours.get(hour) ?? { ...ZERO };
      sums.granted = row.granted;
      snapshot.hours.set(hour, sums);
    }
    return wanted.map(({ kind, subject }) => snapshots.get(`${kind}|${subject}`)!);
  }
}
