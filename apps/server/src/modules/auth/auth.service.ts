import { webcrypto } from 'node:crypto';
import {
  type ChangePasswordInput,
  type LoginRequest,
  type SessionRole,
  type SessionUser,
} from '@lumi/contract';
import { jwtVerify, SignJWT } from 'jose';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { lockForTransaction } from '../../db/locks.js';
import { TooManyRequestsError, UnauthenticatedError } from '../../lib/errors.js';
import { isoAfter, isoTime, type Clock } from '../../lib/time.js';
import { TtlCache } from '../../lib/ttl-cache.js';
import type { Actor, AuditService } from '../audit/audit.service.js';
import type { SessionsService } from '../sessions/sessions.service.js';
import type { AccountsService } from '../users/accounts.service.js';
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
    private readonly accounts: AccountsService,
    private readonly sessions: SessionsService,
    private readonly audit: AuditService,
    private readonly principals: PrincipalCache<Principal>,
    /** Called after a sign-out, password change or refresh token reuse commits (principals everywhere). */
    private readonly accessChanged: () => Promise<void>,
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

    const { account, passwordValid } = await this.accounts.checkCredentials(input.username, input.password);
    if (!account || !passwordValid || !account.active) {
      // The reserved attempt stays recorded as the failure.
      await this.audit.record(
        this.db,
        { ...client, id: account?.id ?? null, username: account?.username ?? null },
        {
          action: 'auth.login_failed',
          resourceType: 'session',
          newValue: {
            username: input.username,
            reason: !account || !passwordValid ? 'invalid_credentials' : 'inactive_account',
          },
        },
      );
      if (account && passwordValid) {
        throw new UnauthenticatedError(
          'This account is inactive. Ask an administrator to reactivate it.',
          'invalid_credentials',
        );
      }
      throw new UnauthenticatedError(INVALID_CREDENTIALS, 'invalid_credentials');
    }

    return this.db.transaction().execute(async (trx) => {
      await repo.clearUserFailures(trx, usernameKey);
      await this.accounts.recordLogin(trx, account.id);
      const { sessionId, refreshToken } = await this.sessions.create(trx, account.id, client);
      const user = await this.accounts.sessionUser(trx, account);
      await this.audit.record(
        trx,
        { ...client, id: account.id, username: account.username },
        {
          action: 'auth.login',
          resourceType: 'session',
          resourceId: null,
          newValue: { username: account.username },
        },
      );
      return { ...(await this.accessToken(account.id, sessionId)), refreshToken, user };
    });
  }

  async refresh(client: Actor, refreshToken: string): Promise<IssuedTokens> {
    return this.db
      .transaction()
      .execute(async (trx) => {
        const outcome = await this.sessions.rotate(trx, refreshToken);
        if (outcome.kind === 'reused') {
          const account = await this.accounts.find(trx, outcome.userId);
          await this.audit.record(
            trx,
            { ...client, id: outcome.userId, username: account?.username ?? null },
            {
              action: 'auth.refresh_reuse',
              resourceType: 'session',
              newValue: { detail: 'A refresh token was used twice; the session was revoked' },
            },
          );
        }
        if (outcome.kind !== 'rotated') return null;
        const account = await this.accounts.find(trx, outcome.userId);
        if (!account?.active) return null;
        const user = await this.accounts.sessionUser(trx, account);
        return {
          ...(await this.accessToken(account.id, outcome.sessionId)),
          refreshToken: outcome.refreshToken,
          user,
        };
      })
      .then(async (issued) => {
        // Thrown after the transaction commits, so a detected reuse stays revoked and audited.
        if (!issued) {
          await this.accessChanged();
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
      const account = userId ? await this.accounts.find(trx, userId) : undefined;
      await this.audit.record(
        trx,
        { ...client, id: account?.id ?? null, username: account?.username ?? null },
        {
          action: 'auth.logout',
          resourceType: 'session',
        },
      );
    });
    await this.accessChanged();
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
    const account = await this.accounts.find(this.db, userId);
    if (!account?.active) return null;
    const user = await this.accounts.sessionUser(this.db, account);
    const principal = { userId, username: account.username, sessionId, roles: user.roles };
    const tokenExpiry = typeof payload.exp === 'number' ? payload.exp * 1000 : 0;
    this.principals.set(token, principal, Math.min(tokenExpiry, Date.parse(session.expires_at)), generation);
    return principal;
  }

  async me(userId: number): Promise<SessionUser> {
    const account = await this.accounts.find(this.db, userId);
    if (!account) throw new UnauthenticatedError();
    return this.accounts.sessionUser(this.db, account);
  }

  async changePassword(
    actor: Actor & { id: number },
    sessionId: string,
    input: ChangePasswordInput,
  ): Promise<void> {
    const change = await this.accounts.preparePasswordChange(actor.id, input);
    await this.db.transaction().execute(async (trx) => {
      await this.accounts.recordPasswordChange(trx, change);
      await this.sessions.revokeAllForUser(trx, actor.id, 'password_changed', sessionId);
      await this.audit.record(trx, actor, {
        action: 'auth.password_changed',
        resourceType: 'user',
        resourceId: actor.id,
        resourceName: actor.username,
      });
    });
    await this.accessChanged();
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
