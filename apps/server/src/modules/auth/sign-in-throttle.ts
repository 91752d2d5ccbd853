import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { lockForTransaction } from '../../db/locks.js';
import { TooManyRequestsError } from '../../lib/errors.js';
import { isoAfter, isoTime, type Clock } from '../../lib/time.js';
import { TtlCache } from '../../lib/ttl-cache.js';
import type { Actor, AuditService } from '../audit/audit.service.js';
import * as repo from './auth.repository.js';

/** Sign-in throttling (docs/operators/security.md): per username and per address within a sliding window. */
export const THROTTLE = { windowMs: 15 * 60 * 1000, perUsername: 5, perIp: 20 };

/** What one count of attempts allows within THROTTLE.windowMs, and what a refusal says. */
export interface AttemptLimits {
  perKey: number;
  perIp: number;
  /** The refusal's first sentence; "Try again in N minutes." follows. */
  refusal: string;
}

const SIGN_IN_LIMITS: AttemptLimits = {
  perKey: THROTTLE.perUsername,
  perIp: THROTTLE.perIp,
  refusal: 'Too many failed sign-in attempts.',
};

/**
 * Codes typed while setting up two-factor sign-in (docs/operators/security.md): a count of their own, per user and
 * per address, so a user struggling with a new authenticator never locks anyone out of signing in.
 */
export const SETUP_CODE_LIMITS: AttemptLimits = {
  perKey: 10,
  perIp: 30,
  refusal: 'Too many wrong codes.',
};
/** How often a run of refusals for one username and address is written to the audit log. */
const THROTTLE_AUDIT_MS = 60_000;

/**
 * The key of a user's second-factor attempts (docs/operators/security.md): codes are throttled like passwords, in a
 * count of their own, so that signing in with the right password again never clears the failed codes.
 */
export function secondFactorKey(userId: number): string {
  return `2fa:${userId}`;
}

/**
 * The keys of a user's two-factor setup attempts: both the user's and the address's count are apart from
 * sign-in's (their keys carry a prefix sign-in never uses), so they are limited by SETUP_CODE_LIMITS only.
 */
export function setupCodeKeys(userId: number, ip: string) {
  return { key: `2fa-setup:${userId}`, ip: `2fa-setup:${ip}` };
}

/**
 * Attempts at a secret (a password, a two-factor code) per key and per address, counted in the database so
 * every instance shares the count.
 */
export class SignInThrottle {
  /**
   * Refusals already audited, by key, address and reason: a flood of throttled attempts writes one
   * audit entry a minute per instance, not one per request, so it can neither fill the audit log nor keep
   * the database busy.
   */
  private readonly audits: TtlCache;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly audit: AuditService,
    private readonly now: Clock,
  ) {
    this.audits = new TtlCache(now, THROTTLE_AUDIT_MS);
  }

  /**
   * Reserves an attempt before the secret is checked: in one transaction that holds the key's and the
   * address's locks, the recent failures are counted and, under the limits, the attempt is recorded as a
   * failure, which a success then clears (`succeeded`). So however many requests arrive at once, on however
   * many instances, at most THROTTLE.perUsername attempts per key (and perIp per address) get as far as a
   * check in a window, and no more scrypt hashes than that run for one account at a time.
   */
  async reserve(client: Actor, key: string, ip: string, limits: AttemptLimits = SIGN_IN_LIMITS) {
    const since = isoAfter(-THROTTLE.windowMs, this.now());
    const limited = await this.db.transaction().execute(async (trx) => {
      await lockForTransaction(trx, [`login:user:${key}`, `login:ip:${ip}`]);
      const failures = await repo.recentFailures(trx, key, ip, since);
      if (failures.user.count >= limits.perKey) return { ...failures.user, reason: 'username' };
      if (failures.ip.count >= limits.perIp) return { ...failures.ip, reason: 'ip_address' };
      await repo.recordLoginFailure(trx, key, ip, isoTime(this.now()));
      return null;
    });
    if (!limited) return;
    const now = this.now();
    const oldest = limited.oldest ? Date.parse(limited.oldest) : now;
    const retryAfter = Math.max(1, Math.ceil((oldest + THROTTLE.windowMs - now) / 1000));
    await this.audits.get(`${key}\n${ip}\n${limited.reason}`, () =>
      this.audit.record(this.db, client, {
        action: 'auth.throttled',
        resourceType: 'session',
        newValue: { username: key, reason: limited.reason },
      }),
    );
    const minutes = Math.ceil(retryAfter / 60);
    throw new TooManyRequestsError(
      `${limits.refusal} Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
      retryAfter,
    );
  }

  /** After a success: the key's recorded failures are forgotten. */
  succeeded(db: Parameters<typeof repo.clearUserFailures>[0], key: string) {
    return repo.clearUserFailures(db, key);
  }

  prune() {
    return repo.pruneFailures(this.db, isoAfter(-THROTTLE.windowMs, this.now()));
  }
}
