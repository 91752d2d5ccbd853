import { deepFreeze } from './shared-answers.js';
import type { Clock } from './time.js';

interface Entry<T> {
  value: Promise<T>;
  /** Set once the load has succeeded: then the answer is handed out at once, without a promise. */
  settled?: { value: T };
  storedAt: number;
}

/** An answer of the cache: the value itself once it is known, a promise of it while it loads. */
export type Cached<T> = T | Promise<T>;

/**
 * A small in-process cache of answers that are expensive to compute and cheap to serve a little late.
 * Each entry lives `ttlMs` from when its load started; `clear()` drops everything at once (the owner calls
 * it when the underlying data changes). The promise is cached, not the value, so concurrent callers of the
 * same key share one load; a load that fails is forgotten. An entry stored before a clock step backwards
 * counts as expired, so a clock moved by tests (or NTP) never makes it live longer than `ttlMs`. Answers are
 * deeply frozen, since every caller gets the same object (and the serializer then encodes each once).
 */
export class TtlCache {
  private readonly entries = new Map<string, Entry<unknown>>();

  constructor(
    private readonly now: Clock,
    private readonly ttlMs: number,
    /** Beyond this many keys the oldest are dropped first, so unusual parameters cannot grow it unbounded. */
    private readonly maxEntries = 500,
  ) {}

  /**
   * The cached answer for `key`, or the result of `load()`, which is then cached. A loaded answer comes back
   * as the value itself (a route can send it without waiting for a microtask), one still loading as the
   * promise that every caller shares.
   */
  get<T>(key: string, load: () => Promise<T>): Cached<T> {
    const now = this.now();
    const hit = this.entries.get(key) as Entry<T> | undefined;
    if (hit && this.isLive(hit, now)) return hit.settled ? hit.settled.value : hit.value;
    if (hit) this.entries.delete(key);

    const entry: Entry<T> = { value: load().then(deepFreeze), storedAt: now };
    this.entries.set(key, entry);
    entry.value.then(
      (value) => {
        entry.settled = { value };
      },
      () => {
        if (this.entries.get(key) === entry) this.entries.delete(key);
      },
    );
    this.evict(now);
    return entry.value;
  }

  /** Forgets every entry: the next read of any key loads afresh. */
  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  private isLive(entry: Entry<unknown>, now: number): boolean {
    const age = now - entry.storedAt;
    return age >= 0 && age < this.ttlMs;
  }

  private evict(now: number): void {
    if (this.entries.size <= this.maxEntries) return;
    for (const [key, entry] of this.entries) {
      if (!this.isLive(entry, now)) this.entries.delete(key);
    }
    // Map iteration is insertion order: the first keys are the oldest.
    for (const key of this.entries.keys()) {
      if (this.entries.size <= this.maxEntries) break;
      this.entries.delete(key);
    }
  }
}
