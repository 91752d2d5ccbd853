import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import type { UsageGrain, UsageKind } from '../../db/limit-tables.js';
import { isPostgres } from '../../db/locks.js';
import type { Clock } from '../../lib/time.js';
import { bucketNames } from './bucket-names.js';
import { grantsAsked } from './limit-grants.repository.js';
import { groupStatement } from './usage-rows.repository.js';
import type { GrantKey, LimitEvents } from './limit-events.js';

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
  /** Takes one grant in each bucket, all or none; resolves to the `by` of one without room, else null. */
  take(grants: ExactGrant[]): Promise<number | null>;
}

/** The counts an instance holds itself (SQLite), which stand in for those the usage reader read. */
export interface CountedInMemory {
  /** A subject's count in the minute or the hour holding `now`, if held here. */
  countedNow(kind: UsageKind, subject: string, grain: UsageGrain, now: number): number | undefined;
  /** A subject's counts held here by hour (its start in ms). */
  countedHours(kind: UsageKind, subject: string): [hour: number, count: number][];
}

interface Bucket {
  /** The buffer of limit-events.ts its last grant went into. */
  buffer: number;
  /** When it starts, in ms. */
  start: number;
  /** By kind and subject. */
  counts: Map<string, number>;
}

/** `letGo` is called when counts held in memory were let go of (usage-reader.ts, countsLetGo). */
export function exactGrants(
  db: Kysely<Database>,
  events: LimitEvents,
  now: Clock,
  letGo: () => void,
): ExactGrants {
  return isPostgres(db) ? new GroupedGrants(db) : new CountedGrants(events, now, letGo);
}

/**
 * SQLite: one process owns the database, so the counts are kept in memory, where the one event loop takes
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

  take(grants: ExactGrant[]): Promise<number | null> {
    const held = grants.map(({ key, seed }) => this.countOf(key) ?? seed);
    const full = grants.findIndex((grant, i) => held[i]! >= grant.below);
    if (full >= 0) return Promise.resolve(grants[full]!.by);
    grants.forEach(({ key }, i) => {
      const buckets = this.buckets[key.grain];
      let bucket = buckets.get(key.bucket);
      if (!bucket) {
        bucket = { buffer: 0, start: Date.parse(key.bucket), counts: new Map() };
        buckets.set(key.bucket, bucket);
      }
      bucket.counts.set(`${key.kind}|${key.subject}`, held[i]! + 1);
      bucket.buffer = this.events.grant(key);
    });
    return Promise.resolve(null);
  }

  countedNow(kind: UsageKind, subject: string, grain: UsageGrain, now: number): number | undefined {
    return this.buckets[grain].get(bucketNames(now)[grain])?.counts.get(`${kind}|${subject}`);
  }

  countedHours(kind: UsageKind, subject: string): [number, number][] {
    const found: [number, number][] = [];
    for (const { start, counts } of this.buckets.hour.values()) {
      const count = counts.get(`${kind}|${subject}`);
      if (count !== undefined) found.push([start, count]);
    }
    return found;
  }

  private countOf(key: GrantKey): number | undefined {
    return this.buckets[key.grain].get(key.bucket)?.counts.get(`${key.kind}|${key.subject}`);
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
 * PostgreSQL: the grants of the checks that arrive while a group is being taken are taken together in the
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

class GroupedGrants implements ExactGrants {
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

  countedNow(): undefined {
    return undefined;
  }

  countedHours(): [number, number][] {
    return [];
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
