import type { Insertable, Kysely } from 'kysely';
import { setImmediate as yieldToRequests } from 'node:timers/promises';
import type { Database } from '../../db/database.js';
import type { LimitDenialsTable, UsageGrain, UsageKind } from '../../db/limit-tables.js';
import { EventBuffer, type Denial } from './event-buffer.js';
import { storeLimitEvents, type GrantCount } from './limit-grants.repository.js';

// For the ingest worker, which stores the write-behind in its own thread (ingestion/ingest-worker.ts).
export { storeLimitEvents, type Denial, type GrantCount };

export interface GrantKey {
  kind: UsageKind;
  subject: string;
  grain: UsageGrain;
  bucket: string;
}
export type DenialRow = Omit<Insertable<LimitDenialsTable>, 'id'>;
/**
 * One part of a flush (`write` numbers the flush; `last` says whether the part ends it) for a store, in the
 * server's thread or in the ingest worker's (ingest-writer.ts), so that on SQLite a second's grants never hold
 * the event loop that answers the checks. A store answers each part once it was stored, all of it or none; or
 * `held` for a part before the last that it keeps to store with the next ones, in one transaction with the last
 * (the ingest worker on SQLite: each commit writes every page it touched to the WAL, and a flush's parts touch
 * many of the same ones, docs/benchmarks.md, "Allowance"). A part that fails fails those it held too.
 */
export interface LimitEventsPart {
  write: number;
  last: boolean;
  grants: GrantCount[];
  denials: DenialRow[];
}
/**
 * What a store says of a part: held for the next ones, or stored; the ingest worker numbers what it stored
 * among its writes (ingest-writer.ts, IngestNews), for the allowance's mirror (usage-mirror.ts).
 */
export type PartOutcome = 'held' | { number?: number };
export type StoreLimitEvents = (part: LimitEventsPart) => Promise<PartOutcome>;

/** How often what the allowance counted is written (docs/operators/limits.md, "What counts"). */
export const LIMIT_EVENTS_FLUSH_MS = 1_000;
/**
 * Rows per part of a flush, which yields to the requests between two: a part's rows are made and handed to
 * the store in one turn (copied to the ingest worker), a write in the server's thread on SQLite holds the event
 * loop, and a second's grants at 2,000 checks a second would hold it for tens of milliseconds at once
 * (engineering guide 16, bounded work).
 */
const FLUSH_CHUNK = 200;

/**
 * What the allowance records without making a check wait for the database: the calls it admitted (those no
 * request limit conditions feed the estimate of calls in flight; on SQLite, the request limits' counts too,
 * exact-grants.ts) and the denials, buffered as numbers (event-buffer.ts). They are written every
 * LIMIT_EVENTS_FLUSH_MS, at shutdown, and before anything that lists them is read on this instance; a process
 * killed outright loses at most that second of them.
 */
export class LimitEvents {
  private buffer = new EventBuffer();
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  /** The number of the buffer being filled; a flush writes it and starts the next. */
  private filling = 1;
  /** The buffer a failed write's rows went back into: no buffer before it counts as stored until it is. */
  private requeuedInto = 0;
  private readonly listeners: ((stored: number) => void)[] = [];
  /** The buffers of the writes under way: each lets a part's grants go as it is stored. */
  private readonly unstored = new Set<EventBuffer>();
  /** How many times stored grants were let go (see `pending`). */
  private partsStored = 0;
  private readonly storedPartListeners: ((rows: readonly GrantCount[], number?: number) => void)[] = [];

  constructor(
    private readonly store: StoreLimitEvents,
    private readonly flushMs = LIMIT_EVENTS_FLUSH_MS,
  ) {}

  /** Events stored through `db` in the server's own thread. */
  static inProcess(db: Kysely<Database>, flushMs?: number): LimitEvents {
    return new LimitEvents(
      ({ grants, denials }) => storeLimitEvents(db, grants, denials).then(() => ({})),
      flushMs,
    );
  }

  /** Counts a grant; returns the number of the buffer it is in (see `onStored`). */
  grant(key: GrantKey, count = 1): number {
    this.buffer.grant(key, count);
    this.schedule();
    return this.filling;
  }

  deny(denial: Denial): void {
    this.buffer.deny(denial);
    this.schedule();
  }

  /**
   * The grants counted here for a counter and not stored yet: buffered, or in a part of a write not stored
   * yet. A part's rows stop counting here once this thread learns it was stored (`onPartStored`); a read of
   * the stored grants between its commit and then counts them twice, and one made before it that is used
   * after, not at all.
   */
  pending(key: GrantKey): number {
    let count = this.buffer.granted(key);
    for (const writing of this.unstored) count += writing.granted(key);
    return count;
  }

  /** How many times stored grants were let go so far: a read made across one may count them nowhere. */
  get storedParts(): number {
    return this.partsStored;
  }

  /** Whether a write is under way: some grants are neither buffered nor known to be stored. */
  get storing(): boolean {
    return this.unstored.size > 0;
  }

  /** Whether everything counted here is stored: nothing buffered, no write under way. */
  get allStored(): boolean {
    return this.buffer.empty && this.unstored.size === 0;
  }

  /**
   * Calls `listener` with a part's grants as they leave `pending` once stored, and the number the ingest worker
   * gave their write (PartOutcome): the allowance's mirror takes them in the same step, so they count once.
   */
  onPartStored(listener: (rows: readonly GrantCount[], number?: number) => void): void {
    this.storedPartListeners.push(listener);
  }

  /** Calls `listener` with a buffer's number once its rows and those of the buffers before are stored. */
  onStored(listener: (stored: number) => void): void {
    this.listeners.push(listener);
  }

  /** Writes what is buffered; resolves once it, and any write before it, is stored. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const buffered = this.buffer;
    const number = this.filling;
    this.buffer = new EventBuffer();
    this.filling += 1;
    this.unstored.add(buffered);
    this.writing = this.writing
      .catch(() => undefined)
      .then(() => this.write(buffered, number))
      .finally(() => this.unstored.delete(buffered))
      .then(() => {
        if (number < this.requeuedInto) return;
        for (const listener of this.listeners) listener(number);
      });
    return this.writing;
  }

  /**
   * Writes a buffer in parts of FLUSH_CHUNK rows. Once a part is stored, its grants and those of the parts the
   * store held for it are let go, a part a turn (all of them at once held the event loop for milliseconds at
   * 2,000 checks a second). What a failed part, those it held and the rest did not store goes back into the
   * buffer being filled.
   */
  private async write(buffered: EventBuffer, write: number): Promise<void> {
    const grants = buffered.grantCount;
    const denials = buffered.denialCount;
    const chunks = Math.ceil(grants / FLUSH_CHUNK) + Math.ceil(denials / FLUSH_CHUNK);
    /** Where the rows not known to be stored start: the parts sent since are FLUSH_CHUNK grants each. */
    let stored = { grants: 0, denials: 0 };
    for (let n = 0, g = 0, d = 0; n < chunks; n += 1) {
      const someGrants = g < grants ? buffered.grantRows(g, Math.min(g + FLUSH_CHUNK, grants)) : [];
      const someDenials =
        someGrants.length === 0 ? buffered.denialRows(d, Math.min(d + FLUSH_CHUNK, denials)) : [];
      let outcome: PartOutcome;
      try {
        if (n > 0) await yieldToRequests();
        outcome = await this.store({
          write,
          last: n === chunks - 1,
          grants: someGrants,
          denials: someDenials,
        });
      } catch (error) {
        this.requeuedInto = this.filling;
        this.unstored.delete(buffered);
        buffered.moveInto(this.buffer, stored.grants, stored.denials);
        if (!this.buffer.empty) this.schedule();
        throw error;
      }
      g += someGrants.length;
      d += someDenials.length;
      if (outcome === 'held') continue;
      const from = stored.grants;
      stored = { grants: g, denials: d };
      // Each part's rows are made again as it is let go: kept until a second's write is stored, they would
      // outlive the young generation's collections (promoted, then collected).
      for (let start = from; start < g; start += FLUSH_CHUNK) {
        if (start > from) await yieldToRequests();
        const to = Math.min(start + FLUSH_CHUNK, g);
        const rows = buffered.grantRows(start, to);
        buffered.letGo(to);
        this.partsStored += 1;
        for (const listener of this.storedPartListeners) listener(rows, outcome.number);
      }
    }
  }

  private schedule() {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      // A failed write is retried with the next flush: its rows went back into the buffer.
      this.flush().catch(() => undefined);
    }, this.flushMs);
    this.timer.unref();
  }
}
