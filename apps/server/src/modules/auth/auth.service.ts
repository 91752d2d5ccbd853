import { webcrypto } from 'node:crypto';
import {
  type ChangePasswordInput,
  type LoginRequest,
  type Profile,
  type SessionRole,
  type SessionUser,
  type UpdateProfileInput,
} from '@lumi/contract';
import { jwtVerify, SignJWT } from 'jose';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { lockForTransaction } from '../../db/locks.js';
import { TooManyRequestsError, UnauthenticatedError, ValidationError } from '../../lib/errors.js';
import type { PasswordHasher } from '../../lib/password.js';
import { isoAfter, isoTime, type Clock } from '../../lib/time.js';
import { TtlCache } from '../../lib/ttl-cache.js';
import type { Actor, AuditService } from '../audit/audit.service.js';
import type { SessionsService } from '../sessions/sessions.service.js';
import type { UsersService } from '../users/users.service.js';
import * as repo from './auth.repository.js';
import type { PrincipalCache } from './principal-cache.js';

export const ACCESS_TOKEN_SECONDS = 15 * 60;
const ISSUER = 'lumi-admin';
const AUDIENCE = 'lumi-admin-api';

/** Sign-in throttling (foundation issue): per username and per address within a sliding window. */
export const THROTTLE = { windowMs: 15 * 60 * 1000, perUsername: 5, perIp: 20 };
/** How often a run of refusals for one username and address is written to the audit log. */
const THROTTLE_AUDIT_MS = 60_000;

export const INVALID_CREDENTIALS = 'Invalid username or password';

export interface Principal {
  userId: number;
  username: string;
  sessionId: string;
  roles: SessionRole[];
}

export interface IssuedTokens {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  refreshToken: string;
  user: SessionUser;
}

export class AuthService {
  /**
   * Refusals already audited, by username, address and reason: a flood of throttled attempts writes one
   * audit entry a minute per instance, not one per request, so it can neither fill the audit log nor keep
   * the database busy.
   */
  private readonly throttleAudits: TtlCache;
  /** The signing key, imported once: jose would import raw bytes again on every sign and verify. */
  private readonly key: Promise<webcrypto.CryptoKey>;

  constructor(
    private readonly db: Kysely<Database>,
    secret: Uint8Array,
    private readonly hasher: PasswordHasher,
    private readonly users: UsersService,
    private readonly sessions: SessionsService,
    private readonly audit: AuditService,
    private readonly principals: PrincipalCache<Principal>,
    private readonly now: Clock,
  ) {
    this.throttleAudits = new TtlCache(now, THROTTLE_AUDIT_MS);
    this.key = webcrypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
      'verify',
    ]);
  }

  async login(client: Actor, input: LoginRequest): Promise<IssuedTokens> {
    const usernameKey = input.username.toLowerCase();
    const ip = client.ip ?? 'unknown';
    await this.reserveAttempt(client, usernameKey, ip);

    const row = await this.users.findRowByUsername(input.username);
    const valid = row
      ? await this.hasher.verify(input.password, row.password_hash)
      : await this.hasher.verifyDummy(input.password);
    if (!row || !valid || row.is_active !== 1) {
      // The reserved attempt stays recorded as the failure.
      await this.audit.record(
        this.db,
        { ...client, id: row?.id ?? null, username: row?.username ?? null },
        {
          action: 'auth.login_failed',
          resourceType: 'session',
          newValue: {
            username: input.username,
            reason: !row || !valid ? 'invalid_credentials' : 'inactive_account',
          },
        },
      );
      if (row && valid) {
        throw new UnauthenticatedError(
          'This account is inactive. Ask an administrator to reactivate it.',
          'invalid_credentials',
        );
      }
      throw new UnauthenticatedError(INVALID_CREDENTIALS, 'invalid_credentials');
    }

    return this.db.transaction().execute(async (trx) => {
      await repo.clearUserFailures(trx, usernameKey);
      await this.users.recordLogin(trx, row.id);
      const { sessionId, refreshToken } = await this.sessions.create(trx, row.id, client);
      const user = await this.users.sessionUser(trx, row);
      await this.audit.record(
        trx,
        { ...client, id: row.id, username: row.username },
        {
          action: 'auth.login',
          resourceType: 'session',
          resourceId: null,
          newValue: { username: row.username },
        },
      );
      return { ...(await this.accessToken(row.id, sessionId)), refreshToken, user };
    });
  }

  async refresh(client: Actor, refreshToken: string): Promise<IssuedTokens> {
    return this.db
      .transaction()
      .execute(async (trx) => {
        const outcome = await this.sessions.rotate(trx, refreshToken);
        if (outcome.kind === 'reused') {
          const row = await this.users.findRowById(trx, outcome.userId);
          await this.audit.record(
            trx,
            { ...client, id: outcome.userId, username: row?.username ?? null },
            {
              action: 'auth.refresh_reuse',
              resourceType: 'session',
              newValue: { detail: 'A refresh token was used twice; the session was revoked' },
            },
          );
        }
        if (outcome.kind !== 'rotated') return null;
        const row = await this.users.findRowById(trx, outcome.userId);
        if (!row || row.is_active !== 1) return null;
        const user = await this.users.sessionUser(trx, row);
        return {
          ...(await this.accessToken(row.id, outcome.sessionId)),
          refreshToken: outcome.refreshToken,
          user,
        };
      })
      .then((issued) => {
        // Thrown after the transaction commits, so a detected reuse stays revoked and audited.
        if (!issued) {
          this.principals.invalidate();
          throw new UnauthenticatedError('Your session has ended. Sign in again.', 'session_expired');
        }
        return issued;
      });
  }

  async logout(client: Actor, session: { sessionId?: string; refreshToken?: string }): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      let sessionId = session.sessionId;
      let userId = client.id;
      if (!sessionId && session.refreshToken) {
        const found = await this.sessions.sessionOfRefreshToken(trx, session.refreshToken);
        sessionId = found?.session_id;
        userId = found?.user_id ?? null;
      }
      if (!sessionId) return;
      await this.sessions.revoke(trx, sessionId, 'logout');
      const row = userId ? await this.users.findRowById(trx, userId) : undefined;
      await this.audit.record(
        trx,
        { ...client, id: row?.id ?? null, username: row?.username ?? null },
        {
          action: 'auth.logout',
          resourceType: 'session',
        },
      );
    });
    this.principals.invalidate();
  }

  /**
   * Verifies an access token and that its session and user are still active. A principal found valid is
   * reused for a few seconds (PrincipalCache: changes on this instance apply at once), and then returned
   * at once, without a promise: most requests of a busy console are answered from there.
   */
  authenticate(token: string): Principal | Promise<Principal | null> {
    return this.principals.get(token) ?? this.verify(token);
  }

  private async verify(token: string): Promise<Principal | null> {
    const generation = this.principals.begin();
    let payload;
    try {
      ({ payload } = await jwtVerify(token, await this.key, {
        issuer: ISSUER,
        audience: AUDIENCE,
        algorithms: ['HS256'],
        // A token without an expiry would never end (RFC 8725, 3.10): refuse it however it was signed.
        requiredClaims: ['exp', 'sub', 'sid'],
      }));
    } catch {
      return null;
    }
    const userId = Number(payload.sub);
    const sessionId = typeof payload.sid === 'string' ? payload.sid : null;
    if (!Number.isInteger(userId) || !sessionId) return null;
    const session = await this.sessions.isActive(sessionId);
    if (!session || session.user_id !== userId) return null;
    const row = await this.users.findRowById(this.db, userId);
    if (!row || row.is_active !== 1) return null;
    const user = await this.users.sessionUser(this.db, row);
    const principal = { userId, username: row.username, sessionId, roles: user.roles };
    const tokenExpiry = typeof payload.exp === 'number' ? payload.exp * 1000 : 0;
    this.principals.set(token, principal, Math.min(tokenExpiry, Date.parse(session.expires_at)), generation);
    return principal;
  }

  async me(userId: number): Promise<SessionUser> {
    const row = await this.users.findRowById(this.db, userId);
    if (!row) throw new UnauthenticatedError();
    return this.users.sessionUser(this.db, row);
  }

  async profile(userId: number): Promise<Profile> {
    const { id, username, email, name } = await this.users.get(userId);
    return { id, username, email, name };
  }

  async updateProfile(actor: Actor & { id: number }, input: UpdateProfileInput): Promise<Profile> {
    const { id, username, email, name } = await this.users.updateProfile(actor, input);
    return { id, username, email, name };
  }

  async changePassword(
    actor: Actor & { id: number },
    sessionId: string,
    input: ChangePasswordInput,
  ): Promise<void> {
    const row = await this.users.findRowById(this.db, actor.id);
    if (!row || !(await this.hasher.verify(input.current_password, row.password_hash))) {
      throw ValidationError.field('current_password', 'Current password is incorrect');
    }
    if (input.new_password === input.current_password) {
      throw ValidationError.field('new_password', 'The new password must differ from the current one');
    }
    this.users.assertAcceptablePassword(input.new_password, 'new_password');
    const hash = await this.users.hashPassword(input.new_password);
    await this.db.transaction().execute(async (trx) => {
      await this.users.setPassword(trx, actor.id, hash);
      await this.sessions.revokeAllForUser(trx, actor.id, 'password_changed', sessionId);
      await this.audit.record(trx, actor, {
        action: 'auth.password_changed',
        resourceType: 'user',
        resourceId: actor.id,
      });
    });
    this.principals.invalidate();
  }

  async prune(): Promise<void> {
    await repo.pruneFailures(this.db, isoAfter(-THROTTLE.windowMs, this.now()));
    await this.sessions.pruneEnded();
  }

  private async accessToken(userId: number, sessionId: string) {
    const access_token = await new SignJWT({ sid: sessionId })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(userId))
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt()
      .setExpirationTime(`${ACCESS_TOKEN_SECONDS}s`)
      .sign(await this.key);
    return { access_token, token_type: 'bearer' as const, expires_in: ACCESS_TOKEN_SECONDS };
  }

  /**
   * Reserves a sign-in attempt before the password is hashed: in one transaction that holds the
   * username's and the address's locks, the recent failures are counted and, under the limits, the attempt
   * is recorded as a failure, which a successful sign-in then clears. So however many requests arrive at
   * once, on however many instances, at most THROTTLE.perUsername attempts per username (and perIp per
   * address) get as far as a password check in a window, and no more scrypt hashes than that run for one
   * account at a time.
   */
  private async reserveAttempt(client: Actor, usernameKey: string, ip: string) {
    const since = isoAfter(-THROTTLE.windowMs, this.now());
    const limited = await this.db.transaction().execute(async (trx) => {
      await lockForTransaction(trx, [`login:user:${usernameKey}`, `login:ip:${ip}`]);
      const failures = await repo.recentFailures(trx, usernameKey, ip, since);
      if (failures.user.count >= THROTTLE.perUsername) return { ...failures.user, reason: 'username' };
      if (failures.ip.count >= THROTTLE.perIp) return { ...failures.ip, reason: 'ip_address' };
      await repo.recordLoginFailure(trx, usernameKey, ip, isoTime(this.now()));
      return null;
    });
    if (!limited) return;
    const now = this.now();
    const oldest = limited.oldest ? Date.parse(limited.oldest) : now;
    const retryAfter = Math.max(1, Math.ceil((oldest + THROTTLE.windowMs - now) / 1000));
    await this.throttleAudits.get(`${usernameKey}\n${ip}\n${limited.reason}`, () =>
      this.audit.record(this.db, client, {
        action: 'auth.throttled',
        resourceType: 'session',
        newValue: { username: usernameKey, reason: limited.reason },
      }),
    );
    const minutes = Math.ceil(retryAfter / 60);
    throw new TooManyRequestsError(
      `Too many failed sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
      retryAfter,
    );
  }
}
