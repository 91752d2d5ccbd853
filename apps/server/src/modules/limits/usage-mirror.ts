import type { Kysely } from 'kysely';
import { readNow } from '../../db/connection.js';
import type { Database } from '../../db/database.js';
import type { UsageGrain, UsageKind } from '../../db/limit-tables.js';
import type { HourSums, Snapshot } from './usage-snapshot.js';

/** A change of stored usage (limit_usage) or grants (limit_grants): one subject's sums in one bucket. */
export interface UsageDelta {
  kind: UsageKind;
  subject: string;
  bucket: string;
  requests: number;
  tokens: number;
  cost_usd: number;
}
export interface GrantDelta {
  kind: UsageKind;
  subject: string;
  grain: UsageGrain;
  bucket: string;
  granted: number;
}

/** Where a snapshot is cut (usage-reader.ts, span): the month's first hour, and the hour summed up to. */
export interface MirrorSpan {
  earlierFrom: number;
  earlierTo: number;
  /** The current minute's start, and its bucket name. */
  minuteStart: number;
  minute: string;
}

// A subject's slot: the month and the cut its `earlier` sums were made for, those sums, its current minute's
// grants, and the first of its hours since the cut.
const S_MONTH = 0;
const S_CUT = 1;
const S_EARLIER = 2; // requests, tokens, cost, granted
const S_MINUTE = 6;
const S_MINUTE_GRANTED = 7;
const S_HEAD = 8;
const SLOT = 9;
// An hour's entry: its start, its sums, and the next entry of its subject (-1 at the end).
const E_HOUR = 0;
const E_SUMS = 1; // requests, tokens, cost, granted
const E_NEXT = 5;
const ENTRY = 6;
const NONE = -1;
/** How long a load that could not run waits before it is tried again. */
const LOAD_RETRY_MS = 50;

/**
 * SQLite: the stored usage and grants of every chat, user and feature this month, kept in memory so that a
 * check reads none of them (docs/operators/limits.md, "What counts"; docs/benchmarks.md, "Allowance").
 * Loaded in one statement once the ingest worker has recovered what a stop left unwritten, then kept in step
 * with every write: the usage sums each stored batch or written-behind part adds (`addUsage`, after its
 * commit) and the grant parts the allowance stores (`addGrants`), the only writers of those tables in the
 * month (retention removes hours older than 32 days). A snapshot is what a read of the database would return
 * at that moment. Each subject is a slot of a Float64Array, its hours a chain of entries in another, found
 * through one Map: a million chats are some 150 MB and few objects for the collector to walk.
 */
export class UsageMirror {
  private readonly slots = new Map<string, number>();
  private slot: Float64Array = new Float64Array(SLOT * 1024);
  private used = 0;
  private entry: Float64Array = new Float64Array(ENTRY * 1024);
  private entries = 0;
  private freeEntry = NONE;
  /** The last call whose usage the stored sums covered when loaded (llm_spend_written); -1 until loaded. */
  private through = -1;

  private retry: NodeJS.Timeout | null = null;

  constructor(private readonly spanAt: (now: number) => MirrorSpan) {}

  /**
   * Loads now, or as soon as it can: not while `busy` (grants being stored, which a load could count and their
   * part once more) nor while the connection cannot read at once; until then snapshots are read. A database
   * closed meanwhile (the server stopping) ends the tries.
   */
  loadSoon(db: Kysely<Database>, now: () => number, busy: () => boolean): void {
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    if (!busy() && this.load(db, now())) return;
    this.unload();
    this.retry = setTimeout(() => {
      try {
        this.loadSoon(db, now, busy);
      } catch {
        this.unload();
      }
    }, LOAD_RETRY_MS);
    this.retry.unref();
  }

  get loaded(): boolean {
    return this.through >= 0;
  }

  /** Drops what is held: until a load, the allowance reads the database. */
  unload(): void {
    this.slots.clear();
    this.used = 0;
    this.entries = 0;
    this.freeEntry = NONE;
    this.through = -1;
  }

  /**
   * Loads the month's usage and grants and the current minute's grants, in one statement (one snapshot of
   * the database) with the last call the stored sums cover; false when the connection cannot read at once.
   */
  load(db: Kysely<Database>, now: number): boolean {
    const span = this.spanAt(now);
    const from = new Date(span.earlierFrom).toISOString();
    const rows = readNow<{
      part: string;
      kind: UsageKind;
      subject: string;
      bucket: string;
      requests: number;
      tokens: number;
      cost_usd: number;
    }>(
      db,
      `select 'w' as part, null as kind, null as subject, null as bucket, last_call_id as requests,
         null as tokens, null as cost_usd from llm_spend_written
       union all
       select 'u', kind, subject, bucket, requests, tokens, cost_usd from limit_usage
         where grain = 'hour' and bucket >= ?
       union all
       select 'h', kind, subject, bucket, granted, null, null from limit_grants
         where grain = 'hour' and bucket >= ?
       union all
       select 'm', kind, subject, bucket, granted, null, null from limit_grants
         where grain = 'minute' and bucket = ?`,
      [from, from, span.minute],
    );
    if (!rows) return false;
    this.unload();
    let through = 0;
    for (const row of rows) {
      if (row.part === 'w') through = Number(row.requests);
      else if (row.part === 'u') this.addSums(row.kind, row.subject, row.bucket, row, span);
      else {
        const grain = row.part === 'h' ? 'hour' : 'minute';
        this.addGrant({ ...row, grain, granted: Number(row.requests) }, span);
      }
    }
    this.through = through;
    return true;
  }

  /**
   * Usage a write stored: a batch's sums, or a part written behind, which covers the calls up to `through`
   * (llm_spend_written; parts the load already saw are skipped). Without `through`, a batch stored after the
   * load in this thread.
   */
  addUsage(sums: readonly UsageDelta[], now: number, through?: number): void {
    if (!this.loaded) return;
    if (through !== undefined) {
      if (through <= this.through) return;
      this.through = through;
    }
    const span = this.spanAt(now);
    for (const sum of sums) this.addSums(sum.kind, sum.subject, sum.bucket, sum, span);
  }

  /** Grants the allowance stored, once they have left what it holds unstored (limit-events.ts). */
  addGrants(grants: readonly GrantDelta[], now: number): void {
    if (!this.loaded) return;
    const span = this.spanAt(now);
    for (const grant of grants) this.addGrant(grant, span);
  }

  /**
   * A subject's snapshot as of `now` (usage-snapshot.ts), without its minute's calls; undefined when not
   * loaded or when `now` is before a moment the subject was kept for (a clock set back).
   */
  snapshot(kind: UsageKind, subject: string, now: number, expires: number): Snapshot | undefined {
    if (!this.loaded) return undefined;
    const span = this.spanAt(now);
    const earlier = { from: span.earlierFrom, to: span.earlierTo, sums: zero() };
    const snapshot: Snapshot = {
      earlier,
      hours: new Map(),
      settled: new Map(),
      minute: span.minute,
      minuteGranted: 0,
      recent: null,
      expires,
    };
    const at = this.slots.get(`${kind}|${subject}`);
    if (at === undefined) return snapshot;
    if (!this.roll(at, span)) return undefined;
    const s = this.slot;
    earlier.sums = {
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
    return snapshot;
  }

  private addSums(
    kind: UsageKind,
    subject: string,
    bucket: string,
    sums: Pick<HourSums, 'requests' | 'tokens' | 'cost_usd'>,
    span: MirrorSpan,
  ) {
    const target = this.target(kind, subject, Date.parse(bucket), span);
    if (target === undefined) return;
    const [array, at] = target;
    add(array, at, Number(sums.requests));
    add(array, at + 1, Number(sums.tokens));
    add(array, at + 2, Number(sums.cost_usd));
  }

  private addGrant(grant: GrantDelta, span: MirrorSpan) {
    const start = Date.parse(grant.bucket);
    if (grant.grain === 'minute') {
      const at = this.slotOf(grant.kind, grant.subject, span);
      const s = this.slot;
      if (s[at + S_MINUTE] === start) add(s, at + S_MINUTE_GRANTED, grant.granted);
      else if (start > s[at + S_MINUTE]!) {
        s[at + S_MINUTE] = start;
        s[at + S_MINUTE_GRANTED] = grant.granted;
      }
      return;
    }
    const target = this.target(grant.kind, grant.subject, start, span);
    if (target) add(target[0], target[1] + 3, grant.granted);
  }

  /** Where an hour's sums go: the subject's earlier sums, or its hour's entry; undefined before the month. */
  private target(
    kind: UsageKind,
    subject: string,
    hour: number,
    span: MirrorSpan,
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
  private slotOf(kind: UsageKind, subject: string, span: MirrorSpan): number {
    const key = `${kind}|${subject}`;
    const at = this.slots.get(key);
    if (at !== undefined) {
      this.roll(at, span);
      return at;
    }
    if (this.used + SLOT > this.slot.length) this.slot = grown(this.slot);
    const made = this.used;
    this.used += SLOT;
    this.slot.fill(0, made, made + SLOT);
    this.slot[made + S_MONTH] = span.earlierFrom;
    this.slot[made + S_CUT] = span.earlierTo;
    this.slot[made + S_HEAD] = NONE;
    this.slots.set(key, made);
    return made;
  }

  /**
   * Brings a slot to `span`: a new month starts its sums afresh (its hours before the month dropped), and
   * the hours before the new cut are added into the earlier sums. False if `span` is before the slot's.
   */
  private roll(at: number, span: MirrorSpan): boolean {
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

const zero = (): HourSums => ({ requests: 0, tokens: 0, cost_usd: 0, granted: 0 });

function grown(array: Float64Array): Float64Array {
  const bigger = new Float64Array(array.length * 2);
  bigger.set(array);
  return bigger;
}
