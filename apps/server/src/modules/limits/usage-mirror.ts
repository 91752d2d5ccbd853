import type { Kysely } from 'kysely';
import { readEachNow } from '../../db/connection.js';
import type { Database } from '../../db/database.js';
import type { UsageKind } from '../../db/limit-tables.js';
import type { UsageSum } from '../telemetry-store/telemetry-store.js';
import type { GrantCount } from './limit-grants.repository.js';
import { MINUTE_MS } from '../../lib/hour-buckets.js';
import { grown } from '../../lib/typed-arrays.js';
import { SubjectSlots, type SubjectSlotsImage } from './subject-slots.js';
import { snapshotSpan, ZERO, type Snapshot, type SnapshotSpan } from './usage-snapshot.js';

/**
 * A mirror made in the ingest worker's thread (ingest-worker.ts), its arrays handed over whole: the month it
 * was loaded in, where each subject's slot is, the slots (and how much of them is used), the entries (and
 * how many are used), the first free entry, and the number of the last write behind it covers.
 */
export interface MirrorImage {
  month: number;
  places: SubjectSlotsImage;
  slot: Float64Array;
  used: number;
  entry: Float64Array;
  entries: number;
  freeEntry: number;
  written: number;
  /** With calls: the calls per chat and user and minute from `callsFrom` on ([minute, key, sums…]). */
  calls: [number, string, number, number, number][];
  callsFrom: number;
}

/**
 * The month's usage and grants, and the minute grants from the current minute on (a subject keeps its latest
 * minute's, addMinute), in one statement (one snapshot of the database); its rows are [part, kind, subject,
 * bucket, a, b, c].
 */
const LOAD_SQL = `
  select 'u', kind, subject, bucket, requests, tokens, cost_usd from limit_usage
    where grain = 'hour' and bucket >= ?
  union all
  select 'h', kind, subject, bucket, granted, null, null from limit_grants
    where grain = 'hour' and bucket >= ?
  union all
  select 'm', kind, subject, bucket, granted, null, null from limit_grants
    where grain = 'minute' and bucket >= ?`;
/**
 * The load of a mirror `withCalls`, which also holds the chats' and users' calls since the current minute's
 * start (what a limit over a minute reads of them, telemetry-store's recentCalls), a row a call: [part, kind,
 * subject, ts, 1, tokens, cost].
 */
const LOAD_SQL_WITH_CALLS = `${LOAD_SQL}
  union all
  select 'c', 'chat', chat_id, ts, 1, input_tokens + output_tokens, cost_usd from llm_calls
    where chat_id is not null and ts >= ?
  union all
  select 'c', 'user', user_id, ts, 1, input_tokens + output_tokens, cost_usd from llm_calls
    where user_id is not null and ts >= ?`;

// A subject's slot: the month and the cut its `earlier` sums were made for, those sums, its current minute's
// grants, the first of its hours since the cut, and how many times it changed (its snapshot is made again).
const S_MONTH = 0;
const S_CUT = 1;
const S_EARLIER = 2; // requests, tokens, cost, granted
const S_MINUTE = 6;
const S_MINUTE_GRANTED = 7;
const S_HEAD = 8;
const S_CHANGES = 9;
const SLOT = 10;
// An hour's entry: its start, its sums, and the next entry of its subject (-1 at the end).
const E_HOUR = 0;
const E_SUMS = 1; // requests, tokens, cost, granted
const E_NEXT = 5;
const ENTRY = 6;
const NONE = -1;
/**
 * Snapshots of at least KEEP_HOURS hours (a feature's holds each hour of the day, and a great many checks
 * name it) are kept to be answered again while their slot and minute stay the same, SNAPSHOTS_KEPT of them.
 * One of fewer is cheaper made again than kept: keeping it would carry it through young-generation
 * collections.
 */
const KEEP_HOURS = 4;
const SNAPSHOTS_KEPT = 1_024;

/**
 * The stored usage and grants of every chat, user and feature this month, kept in memory so that a check
 * reads none of them (docs/operators/limits.md, "What counts"; docs/benchmarks.md, "Allowance"): on SQLite,
 * and on PostgreSQL while the instance is the only one on the database; where the ingest worker stores the
 * batches, it holds the chats' and users' calls of the current minute too (`withCalls`). Loaded in one
 * snapshot once the ingest worker has recovered what a stop left unwritten, then kept in step with every
 * write: the usage sums each stored batch or written-behind part adds and the calls of each batch
 * (`addUsage`, after its commit), and the grant parts the allowance stores (`addGrants`), the only writers of
 * those tables in the month (retention removes hours older than 32 days); the ingest worker numbers them, so
 * that one the load covered is left out. A snapshot is what a read of the database would return at that
 * moment. Each subject is a slot of a Float64Array, its hours a chain of entries in another, found
 * through SubjectSlots: a million chats are some 200 MB and no object for the collector to walk.
 */
export class UsageMirror {
  private slots = SubjectSlots.empty();
  private slot: Float64Array = new Float64Array(SLOT * 1024);
  private used = 0;
  private entry: Float64Array = new Float64Array(ENTRY * 1024);
  private entries = 0;
  private freeEntry = NONE;
  private state: 'unloaded' | 'awaiting' | 'loaded' = 'unloaded';
  /**
   * With calls: the chats' and users' calls by minute (its start) and `kind|subject`: [requests, tokens,
   * cost]; complete for the minutes from `callsFrom` on (those before are let go of).
   */
  private calls = new Map<number, Map<string, [number, number, number]>>();
  private callsFrom = Infinity;
  /** The number of the last write behind that the load covered (see `addUsage`). */
  private written = 0;
  /** The first hour of the month it was loaded in. */
  private month = 0;
  /** The changes told while an image is awaited, made once it is adopted. */
  private told: (() => void)[] = [];
  /** Snapshots made lately, by `kind|subject`, with their slot's changes and minute then (`snapshot`). */
  private made = new Map<string, { changes: number; minuteStart: number; snapshot: Snapshot }>();
  private reload: () => void = () => undefined;
  private retry: NodeJS.Timeout | null = null;

  /**
   * `timezone` is LUMI_TIMEZONE, where days and months start; `withCalls` (the ingest worker tells of each
   * batch's calls) holds the chats' and users' calls of the current minute too (`recent`); without, they are
   * read from the database.
   */
  constructor(
    private readonly timezone: string,
    private readonly withCalls = false,
  ) {}

  /**
   * Loads as soon as it can: from a timer, so never between a write's commit and the news of it, and not
   * while `busy` (writes this thread has committed or is committing and has not told of yet), nor while the
   * connection cannot read at once; until then snapshots are read. A database closed meanwhile (the server
   * stopping) ends the tries.
   */
  loadSoon(db: Kysely<Database>, now: () => number, busy: () => boolean): void {
    this.unload();
    this.retry = setTimeout(() => {
      this.retry = null;
      try {
        if (busy() || !this.load(db, now())) this.loadSoon(db, now, busy);
      } catch {
        this.unload();
      }
    }, 0);
    this.retry.unref();
  }

  get loaded(): boolean {
    return this.state === 'loaded';
  }

  /** Whether a load is asked for and not in yet. */
  get loading(): boolean {
    return this.state === 'awaiting' || this.retry !== null;
  }

  /**
   * Has `reload` called by the first snapshot asked for in a month after the one loaded: the subjects of
   * past months are still held, and a new load holds only this month's (so a bot whose chats come and go
   * does not fill memory month after month).
   */
  reloadWith(reload: () => void): void {
    this.reload = reload;
  }

  /** Drops what is held (and a load under way): until a load, the allowance reads. */
  unload(): void {
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    this.slots = SubjectSlots.empty();
    this.used = 0;
    this.entries = 0;
    this.freeEntry = NONE;
    this.state = 'unloaded';
    this.written = 0;
    this.told = [];
    this.calls = new Map();
    this.callsFrom = Infinity;
    this.made.clear();
  }

  /**
   * Drops what is held, and keeps the changes told from now on for the image asked for (`adopt`), which
   * makes those it does not cover (numbered after its `written`).
   */
  expect(): void {
    this.unload();
    this.state = 'awaiting';
  }

  /**
   * Loads the month's usage and grants and the latest minute's grants, read at once (`loader`), the load
   * covering the writes behind numbered up to `written`; false when the connection cannot read at once (a
   * transaction open on it, or another's lock).
   */
  load(db: Kysely<Database>, now: number, written = 0): boolean {
    const loader = this.loader(now);
    if (!readEachNow(db, loader.query, loader.parameters, loader.add)) {
      this.unload();
      return false;
    }
    loader.finish(written);
    return true;
  }

  /**
   * A load as of `now`, in place of what is held: `query` with `parameters` read in one snapshot of the
   * database, each row handed to `add`, then `finish` with the number of the last write behind it covers.
   */
  loader(now: number) {
    const span = snapshotSpan(now, this.timezone);
    const hours = new Map<string, number>();
    const hourOf = (bucket: string) => {
      let hour = hours.get(bucket);
      if (hour === undefined) hours.set(bucket, (hour = Date.parse(bucket)));
      return hour;
    };
    this.unload();
    return {
      query: this.withCalls ? LOAD_SQL_WITH_CALLS : LOAD_SQL,
      parameters: [span.from, span.from, span.minute, ...(this.withCalls ? [span.minute, span.minute] : [])],
      add: (row: unknown[]) => {
        const [part, kind, subject, bucket, a, b, c] = row as [
          string,
          UsageKind,
          string,
          string,
          number,
          number,
          number,
        ];
        if (part === 'm') this.addMinute(kind, subject, hourOf(bucket), Number(a), span);
        else if (part === 'c')
          this.addCall(`${kind}|${subject}`, Date.parse(bucket), 1, Number(b), Number(c));
        else if (part === 'u') {
          this.addHour(kind, subject, hourOf(bucket), span, Number(a), Number(b), Number(c), 0);
        } else this.addHour(kind, subject, hourOf(bucket), span, 0, 0, 0, Number(a));
      },
      finish: (written: number) => {
        this.state = 'loaded';
        this.written = written;
        this.month = span.earlierFrom;
        if (this.withCalls) this.callsFrom = span.minuteStart;
      },
    };
  }

  /**
   * What is held, to be handed to another thread (`adopt`): its arrays with room to grow (growing one
   * copies it whole), and where each subject's slot is.
   */
  image(): MirrorImage {
    const spare = (array: Float64Array, length: number, step: number) => {
      const copy = new Float64Array(Math.ceil((length * 1.25) / step) * step + step * 1024);
      copy.set(array.subarray(0, length));
      return copy;
    };
    return {
      month: this.month,
      places: this.slots.image(),
      slot: spare(this.slot, this.used, SLOT),
      used: this.used,
      entry: spare(this.entry, this.entries, ENTRY),
      entries: this.entries,
      freeEntry: this.freeEntry,
      written: this.written,
      calls: [...this.calls].flatMap(([minute, held]) =>
        [...held].map(([key, [requests, tokens, cost]]): MirrorImage['calls'][number] => [
          minute,
          key,
          requests,
          tokens,
          cost,
        ]),
      ),
      callsFrom: this.callsFrom,
    };
  }

  /**
   * Holds what another thread loaded (`image`) in place of what was held, its arrays taken as they are, and
   * makes the changes told since it was asked for (`expect`), in the order they came.
   */
  adopt(image: MirrorImage): void {
    const told = this.state === 'awaiting' ? this.told : [];
    this.unload();
    this.slots = SubjectSlots.from(image.places);
    this.slot = image.slot;
    this.used = image.used;
    this.entry = image.entry;
    this.entries = image.entries;
    this.freeEntry = image.freeEntry;
    this.written = image.written;
    this.month = image.month;
    for (const [minute, key, requests, tokens, cost] of image.calls)
      this.addCall(key, minute, requests, tokens, cost);
    this.callsFrom = image.callsFrom;
    this.state = 'loaded';
    for (const change of told) change();
  }

  /**
   * Usage a write stored: a batch's sums and its calls per chat and user and minute (on SQLite the calls
   * alone), or a part the ingest worker wrote behind, numbered in the order it wrote them (`number`; those
   * the load covered are skipped).
   */
  addUsage(sums: readonly UsageSum[], now: number, number?: number, calls: readonly UsageSum[] = []): void {
    if (!this.takes(() => this.addUsage(sums, now, number, calls), number)) return;
    const span = snapshotSpan(now, this.timezone);
    for (const { kind, subject, bucket, requests, tokens, cost_usd } of sums) {
      this.addHour(kind, subject, Date.parse(bucket), span, requests, tokens, cost_usd, 0);
    }
    if (!this.withCalls) return;
    this.letCallsGo(span.minuteStart);
    for (const { kind, subject, bucket, requests, tokens, cost_usd } of calls) {
      this.addCall(`${kind}|${subject}`, Date.parse(bucket), requests, tokens, cost_usd);
    }
  }

  /**
   * Grants the allowance stored, once they have left what it holds unstored (limit-events.ts); numbered as
   * the usage is when the ingest worker stored them (`addUsage`).
   */
  addGrants(grants: readonly GrantCount[], now: number, number?: number): void {
    if (!this.takes(() => this.addGrants(grants, now, number), number)) return;
    const span = snapshotSpan(now, this.timezone);
    for (const grant of grants) this.addGrant(grant, span);
  }

  /**
   * With calls: a chat's or user's calls since the start of the minute holding `now`, as telemetry-store's
   * recentCalls reads them; undefined when not held (not loaded, or a minute before those it holds whole).
   */
  recent(kind: 'chat' | 'user', subject: string, now: number) {
    if (!this.loaded) return undefined;
    const from = snapshotSpan(now, this.timezone).minuteStart;
    if (from < this.callsFrom) return undefined;
    const key = `${kind}|${subject}`;
    const sums = { requests: 0, tokens: 0, cost_usd: 0 };
    for (const [minute, held] of this.calls) {
      const one = minute >= from ? held.get(key) : undefined;
      if (!one) continue;
      sums.requests += one[0];
      sums.tokens += one[1];
      sums.cost_usd += one[2];
    }
    return sums;
  }

  /**
   * Whether a change is to be made now: while an image is awaited it is kept for later (`again`), and one
   * numbered no later than the writes the load covered is left out.
   */
  private takes(again: () => void, number: number | undefined): boolean {
    if (this.state === 'awaiting') this.told.push(again);
    if (this.state !== 'loaded') return false;
    // Each write is told once: one numbered after the load's last is not in it.
    return number === undefined || number > this.written;
  }

  /** A minute's calls of a chat or user (`key`), unless the minute is before those held whole. */
  private addCall(key: string, at: number, requests: number, tokens: number, cost: number) {
    const minute = Math.floor(at / MINUTE_MS) * MINUTE_MS;
    if (minute < this.callsFrom && this.state === 'loaded') return;
    let held = this.calls.get(minute);
    if (!held) this.calls.set(minute, (held = new Map()));
    const sums = held.get(key);
    if (sums) {
      sums[0] += requests;
      sums[1] += tokens;
      sums[2] += cost;
    } else held.set(key, [requests, tokens, cost]);
  }

  /** Lets go of the calls of the minutes before `minute`, which no check reads from then on. */
  private letCallsGo(minute: number) {
    if (minute <= this.callsFrom) return;
    for (const held of this.calls.keys()) if (held < minute) this.calls.delete(held);
    this.callsFrom = minute;
  }

  /**
   * A subject's snapshot as of `now` (usage-snapshot.ts), without its minute's calls: made again once its
   * slot or the minute changed, else the one made last while kept (KEEP_HOURS), so not to be changed by
   * its callers, and never kept by the usage reader itself (`expires` 0); undefined when not loaded or when
   * `now` is before a moment the subject was kept for (a clock set back).
   */
  snapshot(kind: UsageKind, subject: string, now: number): Snapshot | undefined {
    if (!this.loaded) return undefined;
    const span = snapshotSpan(now, this.timezone);
    if (span.earlierFrom > this.month) {
      this.reload();
      return undefined;
    }
    // A clock set back into the month before holds what this one does not.
    if (span.earlierFrom < this.month) return undefined;
    const at = this.slots.get(kind, subject);
    if (at === undefined) return emptySnapshot(span);
    if (!this.roll(at, span)) return undefined;
    const s = this.slot;
    // Its count of an earlier minute is not held once a later one's is (a clock set back).
    if (s[at + S_MINUTE]! > span.minuteStart) return undefined;
    const changes = s[at + S_CHANGES]!;
    // The same minute is the same span (snapshotSpan), so the slot was not rolled since.
    const key = `${kind}|${subject}`;
    const kept = this.made.get(key);
    if (kept && kept.changes === changes && kept.minuteStart === span.minuteStart) return kept.snapshot;
    const snapshot = emptySnapshot(span);
    snapshot.earlier.sums = {
      requests: s[at + S_EARLIER]!,
      tokens: s[at + S_EARLIER + 1]!,
      cost_usd: s[at + S_EARLIER + 2]!,
      granted: s[at + S_EARLIER + 3]!,
    };
    if (s[at + S_MINUTE] === span.minuteStart) snapshot.minuteGranted = s[at + S_MINUTE_GRANTED]!;
    const e = this.entry;
    for (let i = s[at + S_HEAD]!; i !== NONE; i = e[i + E_NEXT]!) {
      snapshot.hours.set(e[i + E_HOUR]!, {
        requests: e[i + E_SUMS]!,
        tokens: e[i + E_SUMS + 1]!,
        cost_usd: e[i + E_SUMS + 2]!,
        granted: e[i + E_SUMS + 3]!,
      });
    }
    if (kept) this.made.delete(key);
    if (snapshot.hours.size < KEEP_HOURS) return snapshot;
    if (this.made.size >= SNAPSHOTS_KEPT) this.made.delete(this.made.keys().next().value!);
    this.made.set(key, { changes, minuteStart: span.minuteStart, snapshot });
    return snapshot;
  }

  private addGrant(grant: GrantCount, span: SnapshotSpan) {
    const start = Date.parse(grant.bucket);
    if (grant.grain === 'minute') this.addMinute(grant.kind, grant.subject, start, grant.granted, span);
    else this.addHour(grant.kind, grant.subject, start, span, 0, 0, 0, grant.granted);
  }

  /** Grants of a minute: the current one's count is kept, an earlier one's left out. */
  private addMinute(kind: UsageKind, subject: string, start: number, granted: number, span: SnapshotSpan) {
    const at = this.slotOf(kind, subject, span);
    const s = this.slot;
    if (s[at + S_MINUTE] === start) add(s, at + S_MINUTE_GRANTED, granted);
    else if (start > s[at + S_MINUTE]!) {
      s[at + S_MINUTE] = start;
      s[at + S_MINUTE_GRANTED] = granted;
    }
  }

  /** Adds an hour's sums to the subject's: to its earlier sums or to the hour's entry; none before its month. */
  private addHour(
    kind: UsageKind,
    subject: string,
    hour: number,
    span: SnapshotSpan,
    requests: number,
    tokens: number,
    cost: number,
    granted: number,
  ) {
    const target = this.target(kind, subject, hour, span);
    if (target === undefined) return;
    const [array, at] = target;
    add(array, at, requests);
    add(array, at + 1, tokens);
    add(array, at + 2, cost);
    add(array, at + 3, granted);
  }

  /** Where an hour's sums go: the subject's earlier sums, or its hour's entry; undefined before the month. */
  private target(
    kind: UsageKind,
    subject: string,
    hour: number,
    span: SnapshotSpan,
  ): [Float64Array, number] | undefined {
    const at = this.slotOf(kind, subject, span);
    if (hour < this.slot[at + S_MONTH]!) return undefined;
    if (hour < this.slot[at + S_CUT]!) return [this.slot, at + S_EARLIER];
    const e = this.entry;
    let last = NONE;
    for (let i = this.slot[at + S_HEAD]!; i !== NONE; i = e[i + E_NEXT]!) {
      if (e[i + E_HOUR] === hour) return [e, i + E_SUMS];
      last = i;
    }
    const added = this.newEntry(hour);
    if (last === NONE) this.slot[at + S_HEAD] = added;
    else this.entry[last + E_NEXT] = added;
    return [this.entry, added + E_SUMS];
  }

  /**
   * The subject's slot, made if new and rolled to `span` unless that is before its own (a clock set back):
   * then a change is placed by the slot's own month and cut, which hold it as a read at that moment would.
   */
  private slotOf(kind: UsageKind, subject: string, span: SnapshotSpan): number {
    const at = this.slots.get(kind, subject);
    if (at !== undefined) {
      this.roll(at, span);
      // It is about to change.
      add(this.slot, at + S_CHANGES, 1);
      return at;
    }
    if (this.used + SLOT > this.slot.length) this.slot = grown(this.slot);
    const made = this.used;
    this.used += SLOT;
    this.slot.fill(0, made, made + SLOT);
    this.slot[made + S_MONTH] = span.earlierFrom;
    this.slot[made + S_CUT] = span.earlierTo;
    this.slot[made + S_HEAD] = NONE;
    this.slots.set(kind, subject, made);
    return made;
  }

  /**
   * Brings a slot to `span`: a new month starts its sums afresh (its hours before the month dropped), and
   * the hours before the new cut are added into the earlier sums. False if `span` is before the slot's.
   */
  private roll(at: number, span: SnapshotSpan): boolean {
    const s = this.slot;
    if (span.earlierFrom < s[at + S_MONTH]! || span.earlierTo < s[at + S_CUT]!) return false;
    if (span.earlierFrom === s[at + S_MONTH] && span.earlierTo === s[at + S_CUT]) return true;
    if (span.earlierFrom > s[at + S_MONTH]!) s.fill(0, at + S_EARLIER, at + S_EARLIER + 4);
    const e = this.entry;
    let previous = NONE;
    for (let i = s[at + S_HEAD]!; i !== NONE;) {
      const next = e[i + E_NEXT]!;
      const hour = e[i + E_HOUR]!;
      if (hour >= span.earlierTo) {
        previous = i;
      } else {
        if (hour >= span.earlierFrom) {
          for (let k = 0; k < 4; k += 1) add(s, at + S_EARLIER + k, e[i + E_SUMS + k]!);
        }
        if (previous === NONE) s[at + S_HEAD] = next;
        else e[previous + E_NEXT] = next;
        e[i + E_NEXT] = this.freeEntry;
        this.freeEntry = i;
      }
      i = next;
    }
    s[at + S_MONTH] = span.earlierFrom;
    s[at + S_CUT] = span.earlierTo;
    return true;
  }

  private newEntry(hour: number): number {
    let at = this.freeEntry;
    if (at !== NONE) this.freeEntry = this.entry[at + E_NEXT]!;
    else {
      if (this.entries + ENTRY > this.entry.length) this.entry = grown(this.entry);
      at = this.entries;
      this.entries += ENTRY;
    }
    this.entry.fill(0, at, at + ENTRY);
    this.entry[at + E_HOUR] = hour;
    this.entry[at + E_NEXT] = NONE;
    return at;
  }
}

const add = (array: Float64Array, at: number, value: number) => {
  array[at] = array[at]! + value;
};

/** A snapshot with nothing used, as of `span`. */
function emptySnapshot(span: SnapshotSpan): Snapshot {
  return {
    earlier: { from: span.earlierFrom, to: span.earlierTo, sums: { ...ZERO } },
    hours: new Map(),
    settled: [],
    minute: span.minute,
    minuteGranted: 0,
    recent: null,
    expires: 0,
  };
}
