import type { BotUsageRequest, BotUsageResponse } from '../wire.js';
import { SUBJECT_KINDS, type CopiedLimit, type LimitIndex, type SubjectKind } from './limit-index.js';
import type { WindowClock } from './windows.js';

/** One limit's count for one subject, in the window that ends at `windowEnd`. */
export interface UsageSlot {
  limit: CopiedLimit;
  /** ms on Lumi's clock. */
  windowEnd: number;
  /**
   * Used in the window as last read from Lumi. For a request limit never below what was known when it was
   * asked for (Lumi's figure plus this process's grants): the calls this process admitted count even while
   * their reports are still on their way.
   */
  base: number;
  /** Lumi's figure has been read in this window (before, `base` is 0). */
  read: boolean;
  /** Checks this process allowed since `base` was read. */
  grants: number;
  /** `grants` when the usage request in flight was sent. */
  grantsAtAsk: number;
}

export interface SubjectEntry {
  /** When a check last named it (ms, this process's clock, to within TOUCH_MS). */
  seen: number;
  /** The copy `slots` follows: the counts of the limits that apply to the subject in it, in its order. */
  index: LimitIndex | null;
  slots: UsageSlot[];
}

/** How often a subject seen again moves to the back of the forgetting order. */
const TOUCH_MS = 1000;
const NO_SLOTS: readonly UsageSlot[] = Object.freeze([]);
const FIELD: ReadonlyArray<'chat_ids' | 'user_ids' | 'features'> = ['chat_ids', 'user_ids', 'features'];

const sameCount = (slot: UsageSlot, limit: CopiedLimit) =>
  slot.limit.id === limit.id && slot.limit.window === limit.window && slot.limit.metric === limit.metric;

/**
 * The usage of the subjects the checks named recently, by kind and subject: at most `maxSubjects` of each
 * kind, in the order they were last seen (a Map keeps insertion order, and a subject seen again is moved to
 * the back), so forgetting the idle ones, or the oldest when full, takes them from the front.
 */
export class UsageBook {
  readonly #subjects: Array<Map<string, SubjectEntry>> = [new Map(), new Map(), new Map()];
  readonly #wanted: Array<Set<string>> = [new Set(), new Set(), new Set()];

  constructor(
    private readonly maxSubjects: number,
    /** Told when a subject's usage is wanted (first sight), to ask for it soon. */
    private readonly onWanted: () => void,
  ) {}

  get size(): number {
    return this.#subjects[0]!.size + this.#subjects[1]!.size + this.#subjects[2]!.size;
  }

  /**
   * The counts of a subject a check names, for the limits that apply to it in `index`, each in the window
   * holding `now` (a new window's starts at 0); [] when no limit applies. A subject with limits is made on
   * first sight, and its usage is wanted.
   */
  slots(
    kind: SubjectKind,
    subject: string,
    index: LimitIndex,
    now: number,
    localNow: number,
    clock: WindowClock,
  ): readonly UsageSlot[] {
    const subjects = this.#subjects[kind]!;
    let entry = subjects.get(subject);
    if (entry === undefined) {
      if (index.applicable(kind, subject).length === 0) return NO_SLOTS;
      entry = { seen: localNow, index: null, slots: [] };
      subjects.set(subject, entry);
      if (subjects.size > this.maxSubjects) {
        const oldest = subjects.keys().next().value!;
        subjects.delete(oldest);
        this.#wanted[kind]!.delete(oldest);
      }
      this.#wanted[kind]!.add(subject);
      this.onWanted();
    } else if (localNow - entry.seen >= TOUCH_MS) {
      subjects.delete(subject);
      subjects.set(subject, entry);
      entry.seen = localNow;
    }
    if (entry.index !== index) this.#realign(entry, kind, subject, index, now, clock);
    const slots = entry.slots;
    for (let i = 0; i < slots.length; i += 1) {
      const slot = slots[i]!;
      if (now >= slot.windowEnd) {
        slot.windowEnd = clock.end(slot.limit.window, now);
        slot.base = 0;
        slot.read = false;
        slot.grants = 0;
        slot.grantsAtAsk = 0;
      }
    }
    return slots;
  }

  /** Another snapshot: the subject's counts follow its limits, a limit kept keeping its count. */
  #realign(
    entry: SubjectEntry,
    kind: SubjectKind,
    subject: string,
    index: LimitIndex,
    now: number,
    clock: WindowClock,
  ): void {
    const old = entry.slots;
    entry.slots = index.applicable(kind, subject).map((limit) => {
      const kept = old.find((slot) => sameCount(slot, limit));
      if (kept) {
        kept.limit = limit;
        return kept;
      }
      const windowEnd = clock.end(limit.window, now);
      return { limit, windowEnd, base: 0, read: false, grants: 0, grantsAtAsk: 0 };
    });
    entry.index = index;
  }

  /** Every subject known is wanted (the periodic refresh). */
  wantAll(): void {
    for (const kind of SUBJECT_KINDS) {
      const wanted = this.#wanted[kind]!;
      for (const subject of this.#subjects[kind]!.keys()) wanted.add(subject);
    }
  }

  /** Forgets the subjects not seen since `before`; returns how many. */
  forget(before: number): number {
    let forgotten = 0;
    for (const kind of SUBJECT_KINDS) {
      const subjects = this.#subjects[kind]!;
      for (const [subject, entry] of subjects) {
        if (entry.seen >= before) break;
        subjects.delete(subject);
        this.#wanted[kind]!.delete(subject);
        forgotten += 1;
      }
    }
    return forgotten;
  }

  /**
   * The next request for usage: up to `max` wanted subjects of each kind, taken off the list; each of their
   * counts notes its grants so far, so the answer keeps only the grants made after it was asked for.
   */
  takeWanted(max: number): BotUsageRequest | null {
    let request: BotUsageRequest | null = null;
    for (const kind of SUBJECT_KINDS) {
      const wanted = this.#wanted[kind]!;
      const subjects: string[] = [];
      for (const subject of wanted) {
        if (subjects.length >= max) break;
        wanted.delete(subject);
        const entry = this.#subjects[kind]!.get(subject);
        if (!entry) continue;
        for (const slot of entry.slots) slot.grantsAtAsk = slot.grants;
        subjects.push(subject);
      }
      if (subjects.length > 0) (request ??= {})[FIELD[kind]!] = subjects;
    }
    return request;
  }

  /** Takes in Lumi's answer to a request `takeWanted` made; `now` on Lumi's clock. */
  apply(answer: BotUsageResponse, now: number, index: LimitIndex, clock: WindowClock): void {
    for (const row of answer.usage) {
      const limit = index.byId.get(row.limit_id);
      const entry = limit && this.#subjects[limit.kind]!.get(row.subject);
      if (!limit || !entry) continue;
      if (entry.index !== index) this.#realign(entry, limit.kind, row.subject, index, now, clock);
      const slot = entry.slots.find((s) => s.limit.id === row.limit_id);
      const end = Date.parse(row.window_end);
      // A window that has ended since starts again from 0: the count rolls over by itself.
      if (!slot || !(end > now) || typeof row.used !== 'number') continue;
      const sinceAsk = Math.max(0, slot.grants - slot.grantsAtAsk);
      if (slot.windowEnd !== end) {
        slot.base = row.used;
        slot.windowEnd = end;
      } else if (!limit.requests) {
        slot.base = row.used;
      } else if (!slot.read) {
        // The first read follows the first checks within moments: their calls cannot be reported yet.
        slot.base = row.used + slot.grantsAtAsk;
      } else {
        // Lumi may not have the reports of the calls admitted here yet, nor we others' calls: at least both.
        slot.base = Math.max(row.used, slot.base + slot.grantsAtAsk);
      }
      slot.read = true;
      slot.grants = sinceAsk;
      slot.grantsAtAsk = 0;
    }
  }
}
