import { webcrypto } from 'node:crypto';
import {
  type ChangePasswordInput,
  type LoginRequest,
  type PendingAction,
  type SessionRole,
  type SessionUser,
  type TwoFactorChallengeResponse,
} from '@lumi/contract';
import { jwtVerify, SignJWT } from 'jose';
import type { Kysely } from 'kysely';
import type { Database, Executor } from '../../db/database.js';
import { UnauthenticatedError } from '../../lib/errors.js';
import type { Clock } from '../../lib/time.js';
import type { Actor, AuditService } from '../audit/audit.service.js';
import type { SessionsService } from '../sessions/sessions.service.js';
import type { Account, AccountsService } from '../users/accounts.service.js';
import type { PrincipalCache } from './principal-cache.js';
import { secondFactorKey, type SignInThrottle } from './sign-in-throttle.js';
import {
  FACTOR_REFUSALS,
  type FactorRefusal,
  type SecondFactor,
  type TwoFactorService,
} from './two-factor.service.js';

export const ACCESS_TOKEN_SECONDS = 15 * 60;
const ISSUER = 'lumi-admin';
const AUDIENCE = 'lumi-admin-api';

export const INVALID_CREDENTIALS = 'Invalid username or password';

export interface Principal {
  userId: number;
  username: string;
  sessionId: string;
  roles: SessionRole[];
  /** What the user must do before anything else; the auth plugin refuses every other route meanwhile. */
  pendingAction: PendingAction | null;
}

export interface IssuedTokens {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  refreshToken: string;
  user: SessionUser;
  password_change_required?: true;
  two_factor_setup_required?: true;
}

const CHALLENGE_ENDED = 'This sign-in took too long or was completed already. Sign in again.';

export class AuthService {
  /** The signing key, imported once: jose would import raw bytes again on every sign and verify. */
  private readonly key: Promise<webcrypto.CryptoKey>;

  constructor(
    private readonly db: Kysely<Database>,
    secret: Uint8Array,
    private readonly accounts: AccountsService,
    private readonly sessions: SessionsService,
    private readonly audit: AuditService,
    private readonly throttle: SignInThrottle,
    private readonly twoFactor: TwoFactorService,
    private readonly principals: PrincipalCache<Principal>,
    /** Called after a sign-out, password change or refresh token reuse commits (principals everywhere). */
    private readonly accessChanged: () => Promise<void>,
    private readonly now: Clock,
  ) {
    this.key = webcrypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
      'verify',
    ]);
  }

  /**
   * The password step. A user with two-factor sign-in gets a challenge for the second step instead of
   * tokens; the password's failures are cleared all the same, while the codes are counted apart.
   */
  async login(client: Actor, input: LoginRequest): Promise<IssuedTokens | TwoFactorChallengeResponse> {
    const usernameKey = input.username.toLowerCase();
    const ip = client.ip ?? 'unknown';
    await this.throttle.reserve(client, usernameKey, ip);

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
      await this.throttle.succeeded(trx, usernameKey);
      if (account.twoFactorEnabled) {
        // A right password is worth knowing about even if its second step never comes (OWASP ASVS 4.0, 7.2.1:
        // every authentication decision is logged).
        await this.audit.record(
          trx,
          { ...client, id: account.id, username: account.username },
          {
            action: 'auth.two_factor_challenged',
            resourceType: 'session',
            newValue: { username: account.username },
          },
        );
        return this.twoFactor.createChallenge(trx, account.id);
      }
      return this.signIn(trx, client, account, { username: account.username });
    });
  }

  /**
   * The second step: a code or a recovery code for the challenge the password step gave. The attempt is
   * throttled (per user, apart from passwords) before the code is checked; the code's use, the challenge's
   * and the new session commit together, so two requests racing with one challenge or one code never both
   * sign in.
   */
  async verifySecondFactor(
    client: Actor,
    input: SecondFactor & { challenge: string },
  ): Promise<IssuedTokens> {
    const userId = await this.twoFactor.challengeUser(input.challenge);
    if (userId === undefined) throw new UnauthenticatedError(CHALLENGE_ENDED, 'challenge_expired');
    const key = secondFactorKey(userId);
    await this.throttle.reserve(client, key, client.ip ?? 'unknown');
    let refused: { account: Account; reason: FactorRefusal } | undefined;
    try {
      return await this.db.transaction().execute(async (trx) => {
        const account = await this.accounts.find(trx, userId);
        if (!account?.active) throw new UnauthenticatedError(CHALLENGE_ENDED, 'challenge_expired');
        // The challenge is taken first, so parallel requests queue on its row alone and always lock in
        // the same order (challenge, then the user's factors): none deadlocks another. A request that
        // lost the challenge stops here; a refused code below rolls the taking back, so the challenge
        // stays for another try.
        if (!(await this.twoFactor.consumeChallenge(trx, input.challenge))) {
          throw new UnauthenticatedError(CHALLENGE_ENDED, 'challenge_expired');
        }
        const factor = await this.twoFactor.useFactor(trx, userId, input);
        if (!factor.ok) {
          refused = { account, reason: factor.reason };
          throw new UnauthenticatedError(FACTOR_REFUSALS[factor.reason], 'invalid_credentials');
        }
        await this.throttle.succeeded(trx, key);
        return this.signIn(trx, client, account, { username: account.username, method: factor.method });
      });
    } catch (error) {
      if (refused) await this.recordRefusal(client, refused.account, refused.reason);
      throw error;
    }
  }

  private async recordRefusal(client: Actor, account: Account, reason: FactorRefusal) {
    await this.twoFactor.recordFailure(
      this.db,
      { ...client, id: account.id, username: account.username },
      account.username,
      reason,
    );
  }

  /** A new session and its tokens, audited as a sign-in; the pending action is told at the top level too. */
  private async signIn(
    trx: Executor,
    client: Actor,
    account: Account,
    audited: Record<string, string>,
  ): Promise<IssuedTokens> {
    await this.accounts.recordLogin(trx, account.id);
    const { sessionId, refreshToken } = await this.sessions.create(trx, account.id, client);
    const user = await this.accounts.sessionUser(trx, account);
    await this.audit.record(
      trx,
      { ...client, id: account.id, username: account.username },
      { action: 'auth.login', resourceType: 'session', resourceId: null, newValue: audited },
    );
    return {
      ...(await this.accessToken(account.id, sessionId)),
      refreshToken,
      user,
      ...(user.pending_action === 'password_change' && { password_change_required: true as const }),
      ...(user.pending_action === 'two_factor_setup' && { two_factor_setup_required: true as const }),
    };
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
    const principal = {
      userId,
      username: account.username,
      sessionId,
      roles: user.roles,
      pendingAction: user.pending_action,
    };
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
      await this.twoFactor.expireChallenges(trx, actor.id);
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
    await this.throttle.prune();
    await this.twoFactor.pruneChallenges();
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
}
