import {
  TWO_FACTOR_CHALLENGE_SECONDS,
  type TwoFactorDisableRequest,
  type TwoFactorEnableResponse,
  type TwoFactorSetupResponse,
  type TwoFactorStatus,
} from '@lumi/contract';
import type { Kysely } from 'kysely';
import type { Database, Executor } from '../../db/database.js';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../../lib/errors.js';
import { isoAfter, isoTime, type Clock } from '../../lib/time.js';
import { randomToken, sha256 } from '../../lib/tokens.js';
import type { Actor, AuditService } from '../audit/audit.service.js';
import type { AccountsService } from '../users/accounts.service.js';
import {
  SETUP_CODE_LIMITS,
  secondFactorKey,
  setupCodeKeys,
  type SignInThrottle,
} from './sign-in-throttle.js';
import { newRecoveryCodes, newTotpSecret, totpStep, type SecretBox } from './two-factor.crypto.js';
import * as repo from './two-factor.repository.js';

/** A second factor as the contract hands it over: exactly one of the two. */
export interface SecondFactor {
  code?: string;
  recovery_code?: string;
}

export type FactorOutcome =
  | { ok: true; method: 'totp' | 'recovery_code' }
  | { ok: false; reason: 'invalid_code' | 'replayed_code' | 'invalid_recovery_code' | 'not_enabled' };

export type FactorRefusal = Exclude<FactorOutcome, { ok: true }>['reason'];

export const FACTOR_REFUSALS: Record<FactorRefusal, string> = {
  invalid_code: 'That code is not valid. Enter the current code from your authenticator app.',
  replayed_code: 'That code was used already. Wait for the next code from your authenticator app.',
  invalid_recovery_code: 'That recovery code is not valid or was used already.',
  not_enabled: 'Two-factor sign-in is not turned on for this account.',
};

/**
 * Two-factor sign-in with TOTP (RFC 6238) and one-time recovery codes (docs/operators/security.md,
 * "Two-factor sign-in"; OWASP ASVS V6/V2.8): the secret is sealed at rest and shown only while a setup is
 * pending; a code's time step is recorded when it is accepted so the same code (or an older one) is never
 * accepted again; recovery codes are stored hashed and each is used once. Every "use" is one conditional
 * UPDATE, which makes it atomic on both databases.
 */
export class TwoFactorService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly box: SecretBox,
    private readonly accounts: AccountsService,
    private readonly throttle: SignInThrottle,
    private readonly audit: AuditService,
    private readonly now: Clock,
    /** Called after two-factor sign-in is turned on or off (what a signed-in user may do changes). */
    private readonly accessChanged: () => Promise<void>,
  ) {}

  async status(userId: number): Promise<TwoFactorStatus> {
    const row = await this.load(this.db, userId);
    return {
      enabled: row.totp_secret !== null,
      enabled_at: row.totp_enabled_at,
      pending: row.totp_secret === null && row.totp_pending_secret !== null,
      recovery_codes_left:
        row.totp_secret === null ? 0 : await repo.countUnusedRecoveryCodes(this.db, userId),
      required: await this.accounts.requiresTwoFactor(this.db, userId),
    };
  }

  /** A new pending secret; a setup started before is replaced. */
  async setup(actor: Actor & { id: number }): Promise<TwoFactorSetupResponse> {
    return this.db.transaction().execute(async (trx) => {
      const row = await this.load(trx, actor.id);
      if (row.totp_secret !== null) {
        throw new ConflictError(
          'Two-factor sign-in is already on. Turn it off first to move it to another authenticator.',
        );
      }
      const { secret, otpauthUrl } = newTotpSecret(row.username);
      await repo.setPendingSecret(trx, actor.id, this.box.seal(secret), isoTime(this.now()));
      await this.audit.record(trx, actor, {
        action: 'auth.two_factor_setup',
        resourceType: 'user',
        resourceId: actor.id,
        resourceName: row.username,
      });
      return { secret, otpauth_url: otpauthUrl };
    });
  }

  /**
   * Confirms the pending secret with a code from it; answers the recovery codes, once. Wrong codes are
   * limited by SETUP_CODE_LIMITS, apart from sign-in's count.
   */
  async enable(actor: Actor & { id: number }, code: string): Promise<TwoFactorEnableResponse> {
    const codes = newRecoveryCodes();
    const attempts = setupCodeKeys(actor.id, actor.ip ?? 'unknown');
    await this.throttle.reserve(actor, attempts.key, attempts.ip, SETUP_CODE_LIMITS);
    await this.db.transaction().execute(async (trx) => {
      const row = await this.load(trx, actor.id);
      if (row.totp_secret !== null) throw new ConflictError('Two-factor sign-in is already on.');
      if (row.totp_pending_secret === null) {
        throw new ConflictError('Start the setup first: it gives the secret for your authenticator app.');
      }
      const step = totpStep(this.unseal(row.totp_pending_secret), code, this.now());
      if (step === null) throw ValidationError.field('code', FACTOR_REFUSALS.invalid_code);
      const now = isoTime(this.now());
      // A parallel enable (or a new setup) got there first: only one set of recovery codes may stand.
      if (!(await repo.enable(trx, actor.id, row.totp_pending_secret, step, now))) {
        throw new ConflictError('Two-factor sign-in was changed by another request; reload and try again.');
      }
      await this.throttle.succeeded(trx, attempts.key);
      await repo.replaceRecoveryCodes(
        trx,
        actor.id,
        codes.map((c) => this.box.recoveryCodeHash(c)),
        now,
      );
      await this.audit.record(trx, actor, {
        action: 'auth.two_factor_enabled',
        resourceType: 'user',
        resourceId: actor.id,
        resourceName: row.username,
      });
    });
    await this.accessChanged();
    return { recovery_codes: codes };
  }

  /** Turns two-factor sign-in off with the password and a code (or a recovery code), throttled as sign-in. */
  async disable(actor: Actor & { id: number }, input: TwoFactorDisableRequest): Promise<void> {
    if (await this.accounts.requiresTwoFactor(this.db, actor.id)) {
      throw new ForbiddenError('Your role requires two-factor sign-in, so it cannot be turned off.');
    }
    const key = secondFactorKey(actor.id);
    await this.throttle.reserve(actor, key, actor.ip ?? 'unknown');
    if (!(await this.accounts.passwordMatches(actor.id, input.password))) {
      await this.recordFailure(this.db, actor, actor.username ?? '', 'invalid_password');
      throw ValidationError.field('password', 'Password is incorrect');
    }
    const result = await this.db.transaction().execute(async (trx) => {
      const row = await this.load(trx, actor.id);
      const outcome = await this.useFactor(trx, actor.id, input);
      if (!outcome.ok) return { refused: outcome.reason, username: row.username };
      await repo.disable(trx, actor.id, isoTime(this.now()));
      await this.throttle.succeeded(trx, key);
      await this.audit.record(trx, actor, {
        action: 'auth.two_factor_disabled',
        resourceType: 'user',
        resourceId: actor.id,
        resourceName: row.username,
        newValue: { method: outcome.method },
      });
      return { refused: null, username: row.username };
    });
    if (result.refused) {
      await this.recordFailure(this.db, actor, result.username, result.refused);
      if (result.refused === 'not_enabled') throw new ConflictError(FACTOR_REFUSALS.not_enabled);
      const field = input.code !== undefined ? 'code' : 'recovery_code';
      throw ValidationError.field(field, FACTOR_REFUSALS[result.refused]);
    }
    await this.accessChanged();
  }

  /** An admin's reset (the user lost their authenticator): off, pending setup and recovery codes gone. */
  async reset(trx: Executor, userId: number): Promise<boolean> {
    const row = await this.load(trx, userId);
    await repo.disable(trx, userId, isoTime(this.now()));
    return row.totp_secret !== null || row.totp_pending_secret !== null;
  }

  /**
   * Uses up a code or a recovery code of `userId`, atomically: of parallel requests with the same code
   * (or two codes of one time step), or with the same recovery code, exactly one succeeds.
   */
  async useFactor(trx: Executor, userId: number, factor: SecondFactor): Promise<FactorOutcome> {
    const row = await this.load(trx, userId);
    if (row.totp_secret === null) return { ok: false, reason: 'not_enabled' };
    if (factor.recovery_code !== undefined) {
      const hash = this.box.recoveryCodeHash(factor.recovery_code);
      const used = await repo.useRecoveryCode(trx, userId, hash, isoTime(this.now()));
      return used ? { ok: true, method: 'recovery_code' } : { ok: false, reason: 'invalid_recovery_code' };
    }
    const step = totpStep(this.unseal(row.totp_secret), factor.code ?? '', this.now());
    if (step === null) return { ok: false, reason: 'invalid_code' };
    return (await repo.useStep(trx, userId, step))
      ? { ok: true, method: 'totp' }
      : { ok: false, reason: 'replayed_code' };
  }

  async recordFailure(db: Executor, actor: Actor, username: string, reason: string) {
    await this.audit.record(db, actor, {
      action: 'auth.two_factor_failed',
      resourceType: 'session',
      newValue: { username, reason },
    });
  }

  /** A challenge for a sign-in's second step: random, stored hashed, short-lived, used once. */
  async createChallenge(db: Executor, userId: number) {
    const challenge = randomToken();
    const at = this.now();
    await repo.insertChallenge(db, {
      token_hash: sha256(challenge),
      user_id: userId,
      created_at: isoTime(at),
      expires_at: isoAfter(TWO_FACTOR_CHALLENGE_SECONDS * 1000, at),
    });
    return { two_factor_required: true as const, challenge, expires_in: TWO_FACTOR_CHALLENGE_SECONDS };
  }

  /** The user a live challenge belongs to, or undefined once it expired or was used. */
  async challengeUser(challenge: string): Promise<number | undefined> {
    return (await repo.findLiveChallenge(this.db, sha256(challenge), isoTime(this.now())))?.user_id;
  }

  consumeChallenge(trx: Executor, challenge: string): Promise<boolean> {
    return repo.consumeChallenge(trx, sha256(challenge), isoTime(this.now()));
  }

  /**
   * Ends the user's sign-ins that wait for their second step, with the sessions a password change or an
   * admin's sign-out, password or two-factor reset ends: a password known before must not finish a
   * sign-in after.
   */
  expireChallenges(trx: Executor, userId: number) {
    return repo.expireChallengesOf(trx, userId, isoTime(this.now()));
  }

  pruneChallenges() {
    return repo.pruneChallenges(this.db, isoAfter(-24 * 3600 * 1000, this.now()));
  }

  /** A secret sealed under another LUMI_SECRET cannot be opened: only an admin's reset helps then. */
  private unseal(sealed: string): string {
    try {
      return this.box.open(sealed);
    } catch {
      throw new ConflictError(
        'Two-factor sign-in cannot be checked for this account since the server’s secret key changed. ' +
          'Ask an administrator to reset your two-factor sign-in.',
      );
    }
  }

  private async load(db: Executor, userId: number) {
    const row = await repo.findTwoFactor(db, userId);
    if (!row) throw new NotFoundError(`User ${userId} does not exist`);
    return row;
  }
}
