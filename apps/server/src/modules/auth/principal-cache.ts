import type { Clock } from '../../lib/time.js';

/** LUMI_AUTH_CACHE_SECONDS by default: the safety net should a change's notification be lost. */
export const AUTH_CACHE_SECONDS_DEFAULT = 5;

interface Entry<T> {
  value: T;
  storedAt: number;
  expiresAt: number;
}

/**
 * Signed-in principals by access token, so that a busy console does not verify the token's signature and
 * read its session, user and roles from the database on every request; and, in a cache of their own, the
 * bots' API keys by their hash (modules/api-keys/api-keys.service.ts).
 *
 * An entry lives at most `ttlMs` and never past the token's, the session's or the key's own expiry. The
 * services that change who may do what (sign-out, password change, user and role edits, session revocation;
 * a key revoked or its content settings changed) publish the `access` (or `api-keys`) invalidation after
 * their transaction commits (modules/cluster/invalidation.ts), which calls `invalidate()`
 * here at once and on every other instance sharing the PostgreSQL database within milliseconds; `ttlMs`
 * (LUMI_AUTH_CACHE_SECONDS, which 0 turns off) is the safety net should a notification be lost. A lookup that started before an invalidation is not stored, because it may have read the
 * old state: `begin()` hands out the generation that `set()` must still match.
 */
export class PrincipalCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private generation = 0;

  constructor(
    private readonly now: Clock,
    private readonly ttlMs: number,
    /** Beyond this many tokens the oldest are dropped first. */
    private readonly maxEntries = 10_000,
  ) {}

  get(token: string): T | undefined {
    const entry = this.entries.get(token);
    if (!entry) return undefined;
    const now = this.now();
    // A clock stepped backwards (tests, NTP) must not make an entry live longer than ttlMs.
    if (now >= entry.storedAt && now < entry.expiresAt) return entry.value;
    this.entries.delete(token);
    return undefined;
  }

  /** The generation a lookup starts in; pass it to `set()`. */
  begin(): number {
    return this.generation;
  }

  /** Keeps `value` until `expiresAt` at the latest, unless the cache was invalidated since `generation`. */
  set(token: string, value: T, expiresAt: number, generation: number): void {
    if (this.ttlMs <= 0 || generation !== this.generation) return;
    const now = this.now();
    const until = Math.min(expiresAt, now + this.ttlMs);
    if (until <= now) return;
    this.entries.delete(token);
    this.entries.set(token, { value, storedAt: now, expiresAt: until });
    // Map iteration is insertion order: the first keys are the oldest.
    for (const key of this.entries.keys()) {
      if (this.entries.size <= this.maxEntries) break;
      this.entries.delete(key);
    }
  }

  /** Forgets every principal: the next request of every token is checked against the database again. */
  invalidate(): void {
    this.generation += 1;
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
