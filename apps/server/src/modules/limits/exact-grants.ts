import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type pg from 'pg';
import { sessionClients } from '../../db/connection.js';
import type { Database } from '../../db/database.js';
import type { UsageGrain, UsageKind } from '../../db/limit-tables.js';
import { isPostgres } from '../../db/locks.js';
import { ServiceUnavailableError } from '../../lib/errors.js';
import type { Clock } from '../../lib/time.js';
import { SoleInstance, type SoleMode } from '../cluster/sole-instance.js';
import { bucketNames } from './bucket-names.js';
import { grantsAsked } from './limit-grants.repository.js';
import { groupStatement } from './usage-rows.repository.js';
import type { GrantKey, LimitEvents } from './limit-events.js';
import { SubjectSlots } from './subject-slots.js';

/**
 * One grant a hard request limit conditions: its bucket's count must stay below `below` (the limit's amount
 * less what its window used before the bucket); `seed` is the bucket's count as the usage reader saw it; `by`
 * the limit's position among the check's.
 */
export interface ExactGrant {
  key: GrantKey;
  below: number;
  seed: number;
  by: number;
}

/**
 * The request limits' exact counting (docs/operators/limits.md, "What counts"): of checks made at the same
 * moment, no more are admitted than a limit has left, on one instance or several on one PostgreSQL
 * (engineering guide 15).
 */
export interface ExactGrants extends CountedInMemory {
  /** Where the counts are now: `waiting` while this instance may not decide yet (PostgreSQL). */
  readonly where: 'memory' | 'database' | 'waiting';
  /**
   * Runs a decision, whose exact grants are taken in the database while `inDatabase`, else counted in
   * memory; the way is the same from its start to its end.
   */
  during<T>(decision: (inDatabase: boolean) => Promise<T>): Promise<T>;
  /** Takes one grant in each bucket, all or none; resolves to the `by` of one without room, else null. */
  take(grants: ExactGrant[]): Promise<number | null>;
  /** Writes what is counted in memory and, on PostgreSQL, lets the other instances count alone. */
  close(): Promise<void>;
  /**
   * Calls `listener` with where the counts go: as soon as a change away from memory starts, and once a
   * change to memory is made (PostgreSQL; on SQLite they stay in memory).
   */
  onWhere(listener: (where: ExactGrants['where']) => void): void;
}

/** The counts an instance holds itself (counting in memory), which stand in for those the usage reader read. */
export interface CountedInMemory {
  /** A subject's count in the minute or the hour holding `now`, if held here. */
  countedNow(kind: UsageKind, subject: string, grain: UsageGrain, now: number): number | undefined;
  /** A subject's counts held here by hour (its start in ms), in a new array the caller may add to. */
  countedHours(kind: UsageKind, subject: string): [hour: number, count: number][];
}

interface Bucket {
  /** The buffer of limit-events.ts its last grant went into. */
  buffer: number;
  /** When it starts, in ms. */
  start: number;
  /**
   * By kind and subject, as numbers in typed arrays (subject-slots.ts): a minute's bucket holds a count for
   * each chat checked in it, which as strings in a Map outlived the young generation by a minute or more.
   */
  counts: SubjectSlots;
}

/** `letGo` is called when counts held in memory were let go of (usage-reader.ts, countsLetGo). */
export function exactGrants(
  db: Kysely<Database>,
  events: LimitEvents,
  now: Clock,
  letGo: () => void,
  log: FastifyBaseLogger,
): ExactGrants {
  const counted = new CountedGrants(events, now, letGo);
  if (!isPostgres(db)) return counted;
  return new SwitchedGrants(counted, new GroupedGrants(db), events, letGo, log, sessionClients(db));
}

/**
 * SQLite, and PostgreSQL while this instance is the only one on it: the counts are kept in memory, where the one event loop takes
 * a check's grants all at once, and written behind with the other grants (limit-events.ts). A bucket's count
 * starts from what the usage reader read (nothing else writes the grants), and stays here until its bucket
 * has passed and it is stored; then `letGo` has the usage reader forget, and read again, what it read before.
 */
class CountedGrants implements ExactGrants {
  /** By grain, then by bucket name. */
  private readonly buckets: Record<UsageGrain, Map<string, Bucket>> = { minute: new Map(), hour: new Map() };

  constructor(
    private readonly events: LimitEvents,
    private readonly now: Clock,
    private readonly letGo: () => void,
  ) {
    events.onStored((stored) => this.forget(stored));
  }

  readonly where = 'memory';

  onWhere(): void {}

  during<T>(decision: (inDatabase: boolean) => Promise<T>): Promise<T> {
    return decision(false);
  }

  close(): Promise<void> {
    return this.events.flush();
  }

  /** Forgets every count: all of them are stored, or are pending in limit-events.ts, which counts them. */
  letGoAll(): void {
    this.buckets.minute.clear();
    this.buckets.hour.clear();
    this.letGo();
  }

  take(grants: ExactGrant[]): Promise<number | null> {
    const held = grants.map(({ key, seed }) => this.countOf(key) ?? seed);
    const full = grants.findIndex((grant, i) => held[i]! >= grant.below);
    if (full >= 0) return Promise.resolve(grants[full]!.by);
    grants.forEach(({ key }, i) => {
      const buckets = this.buckets[key.grain];
      let bucket = buckets.get(key.bucket);
      if (!bucket) {
        bucket = { buffer: 0, start: Date.parse(key.bucket), counts: SubjectSlots.empty() };
        buckets.set(key.bucket, bucket);
      }
      // SubjectSlots holds whole numbers from 0: a count read below it (grants given back, counted before the
      // grants they give back) is taken as 0, which never admits more than the limit allows.
      bucket.counts.set(key.kind, key.subject, Math.max(0, held[i]! + 1));
      bucket.buffer = this.events.grant(key);
    });
    return Promise.resolve(null);
  }

  countedNow(kind: UsageKind, subject: string, grain: UsageGrain, now: number): number | undefined {
    return this.buckets[grain].get(bucketNames(now)[grain])?.counts.get(kind, subject);
  }

  countedHours(kind: UsageKind, subject: string): [number, number][] {
    const found: [number, number][] = [];
    for (const { start, counts } of this.buckets.hour.values()) {
      const count = counts.get(kind, subject);
      if (count !== undefined) found.push([start, count]);
    }
    return found;
  }

  private countOf(key: GrantKey): number | undefined {
    return this.buckets[key.grain].get(key.bucket)?.counts.get(key.kind, key.subject);
  }

  private forget(stored: number) {
    const current = bucketNames(this.now());
    let forgot = false;
    for (const grain of ['minute', 'hour'] as const) {
      for (const [name, { buffer }] of this.buckets[grain]) {
        if (name < current[grain] && buffer <= stored) forgot = this.buckets[grain].delete(name);
      }
    }
    if (forgot) this.letGo();
  }
}

/**
 * PostgreSQL while other instances may share it: the grants of the checks that arrive while a group is being taken are taken together in the
 * next: their counters locked in key order with their latest counts, shared out to the checks in the order
 * they came, all of a check's or none, and set, in one statement however many checks (lumi_take_grants, a
 * group commit that holds its locks only while it runs), GROUPS_AT_ONCE such statements at a time. The
 * commit does not wait for the WAL to reach the disk (`synchronous_commit = off` for that statement alone):
 * every instance sees it as soon as it ends, and a crash of PostgreSQL itself can lose the grants of its last
 * fraction of a second (three times `wal_writer_delay`, 600 ms by default), never count one twice. A check
 * whose grants need no read (allowance.service.ts, takeAhead) takes them with its read instead
 * (usage-reader.ts, takeWithRead), in the same statement.
 */
/** How many groups of grants one instance takes at once. */
const GROUPS_AT_ONCE = 1;

class GroupedGrants {
  private queue: {
    grants: ExactGrant[];
    done: (refused: number | null) => void;
    fail: (e: unknown) => void;
  }[] = [];
  private running = 0;

  constructor(private readonly db: Kysely<Database>) {}

  take(grants: ExactGrant[]): Promise<number | null> {
    return new Promise((done, fail) => {
      this.queue.push({ grants, done, fail });
      if (this.running < GROUPS_AT_ONCE) void this.drain();
    });
  }

  private async drain() {
    this.running += 1;
    while (this.queue.length > 0) {
      const batch = this.queue;
      this.queue = [];
      try {
        const refused = await this.grantAll(batch.map(({ grants }) => grants));
        batch.forEach(({ done }, i) => done(refused[i]!));
      } catch (error) {
        for (const { fail } of batch) fail(error);
      }
    }
    this.running -= 1;
  }

  private async grantAll(checks: ExactGrant[][]): Promise<(number | null)[]> {
    const { refused } = await groupStatement(this.db, undefined, grantsAsked(checks));
    return checks.map((grants, check) => {
      const full = refused!.get(check);
      return full === undefined ? null : grants[full]!.by;
    });
  }
}

/**
 * The session of the allowance's locks: named for pg_stat_activity, and failing rather than hanging when
 * the database stops answering (a statement that fails ends the session, SoleInstance).
 */
const SOLE_SESSION: pg.ClientConfig = {
  application_name: 'lumi allowance locks',
  keepAlive: true,
  connectionTimeoutMillis: 5_000,
  query_timeout: 5_000,
};

/** How long a decision waits for this instance to be let in on PostgreSQL before it answers 503. */
export const JOIN_WAIT_MS = 5_000;

/**
 * PostgreSQL: counted in memory while this instance is the only one on the database, else taken in the
 * database (docs/operators/limits.md, "What counts"; SoleInstance says how an instance knows). A change of
 * way waits for the decisions under way; leaving memory writes its counts first, so that the next decision,
 * here or on another instance, reads them from the database.
 */
class SwitchedGrants implements ExactGrants {
  private mode: SoleMode = 'none';
  /** Decisions under way, and what the next change waits for. */
  private active = 0;
  private drained: (() => void) | null = null;
  private changing: Promise<void> | null = null;
  private readonly waiting = new Set<() => void>();
  private readonly listeners: ((where: ExactGrants['where']) => void)[] = [];
  private readonly sole: SoleInstance | null;

  constructor(
    private readonly counted: CountedGrants,
    private readonly grouped: GroupedGrants,
    private readonly events: LimitEvents,
    private readonly letGo: () => void,
    log: FastifyBaseLogger,
    /** Without sessions of its own (a database not opened by db/connection.ts), it always shares. */
    sessions: ((settings: pg.ClientConfig) => pg.Client) | undefined,
  ) {
    this.sole = sessions
      ? new SoleInstance(
          () => sessions(SOLE_SESSION),
          'lumi:allowance',
          (mode) => this.change(mode),
          log,
        )
      : null;
    if (this.sole) this.sole.start();
    else this.mode = 'shared';
  }

  get where(): ExactGrants['where'] {
    return this.mode === 'alone' ? 'memory' : this.mode === 'shared' ? 'database' : 'waiting';
  }

  async during<T>(decision: (inDatabase: boolean) => Promise<T>): Promise<T> {
    if (this.changing || this.mode === 'none') await this.settled();
    this.active += 1;
    try {
      return await decision(this.mode === 'shared');
    } finally {
      this.active -= 1;
      if (this.active === 0) this.drained?.();
    }
  }

  take(grants: ExactGrant[]): Promise<number | null> {
    return this.mode === 'alone' ? this.counted.take(grants) : this.grouped.take(grants);
  }

  countedNow(kind: UsageKind, subject: string, grain: UsageGrain, now: number): number | undefined {
    return this.mode === 'alone' ? this.counted.countedNow(kind, subject, grain, now) : undefined;
  }

  countedHours(kind: UsageKind, subject: string): [number, number][] {
    return this.mode === 'alone' ? this.counted.countedHours(kind, subject) : [];
  }

  close(): Promise<void> {
    return this.sole?.close() ?? Promise.resolve();
  }

  onWhere(listener: (where: ExactGrants['where']) => void): void {
    this.listeners.push(listener);
  }

  private tell(where: ExactGrants['where']) {
    for (const listener of this.listeners) listener(where);
  }

  /** Waits until no change is under way and this instance decides, or JOIN_WAIT_MS. */
  private async settled(): Promise<void> {
    const deadline = Date.now() + JOIN_WAIT_MS;
    while (this.changing || this.mode === 'none') {
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new ServiceUnavailableError(
          'The allowance is not deciding yet: this instance is waiting for its turn on the database; ask again in a second',
          1,
        );
      }
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          this.waiting.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, left);
        this.waiting.add(wake);
      });
    }
  }

  /** SoleInstance's change: after the decisions under way, and writing the counts when leaving memory. */
  private async change(next: SoleMode): Promise<void> {
    while (this.changing) await this.changing;
    const changing = this.switchTo(next);
    this.changing = changing.catch(() => undefined);
    try {
      await changing;
    } finally {
      this.changing = null;
      for (const wake of [...this.waiting]) wake();
    }
  }

  private async switchTo(next: SoleMode): Promise<void> {
    if (this.active > 0) await new Promise<void>((resolve) => (this.drained = resolve));
    this.drained = null;
    if (this.mode === 'alone' || next === 'none') {
      // Everything counted here is written first, also what an earlier write failed to store and put back,
      // so that the others read it; still alone if it cannot be, unless this instance stops deciding (then
      // what is left counts here as pending, limit-events.ts).
      if (this.mode === 'alone') this.tell(next === 'none' ? 'waiting' : 'database');
      try {
        while (!this.events.allStored) await this.events.flush();
      } catch (error) {
        if (next !== 'none') {
          this.tell('memory');
          throw error;
        }
      }
      if (this.mode === 'alone') this.counted.letGoAll();
    } else if (next === 'alone') {
      // Snapshots read before may lack grants other instances took since.
      this.letGo();
    }
    this.mode = next;
    if (next === 'alone') this.tell('memory');
  }
}
