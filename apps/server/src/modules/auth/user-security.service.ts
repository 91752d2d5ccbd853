import type { AuthSession, PasswordResetRequest } from '@lumi/contract';
import type { Kysely } from 'kysely';
import type { Database, Executor } from '../../db/database.js';
import { ForbiddenError, NotFoundError } from '../../lib/errors.js';
import type { PasswordHasher } from '../../lib/password.js';
import type { Actor, AuditEvent, AuditService } from '../audit/audit.service.js';
import { parsePermissions, type RolesService } from '../roles/roles.service.js';
import type { SessionsService } from '../sessions/sessions.service.js';
import { assertAcceptablePassword, type AccountsService } from '../users/accounts.service.js';
import type { TwoFactorService } from './two-factor.service.js';

/**
 * What an admin does for a user's sign-in (docs/operators/security.md): see and end their sessions, reset
 * their two-factor sign-in when they lost their authenticator, and set a temporary password they must change
 * first. Each is audited, and held to the rule of user edits: nobody acts on a user who holds more than they
 * do. The routes are the users' (users.routes.ts); the work is sign-in's, so it lives here, and reaches the
 * user through the accounts service.
 */
export class UserSecurityService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly hasher: PasswordHasher,
    private readonly accounts: AccountsService,
    private readonly roles: RolesService,
    private readonly sessions: SessionsService,
    private readonly twoFactor: TwoFactorService,
    private readonly audit: AuditService,
    private readonly accessChanged: () => Promise<void>,
  ) {}

  async listSessions(userId: number, currentSessionId: string | null): Promise<AuthSession[]> {
    await this.target(this.db, userId);
    return this.sessions.list(userId, currentSessionId);
  }

  /** Signs the user out everywhere; answers how many sessions ended. */
  async revokeSessions(actor: Actor, userId: number): Promise<number> {
    return this.changeSignIn(actor, userId, 'user.sessions_revoked', async (trx) => {
      const revoked = await this.sessions.revokeAllForUser(trx, userId, 'signed_out_by_admin');
      return { result: revoked, newValue: { revoked } };
    });
  }

  async resetTwoFactor(actor: Actor, userId: number): Promise<void> {
    if (actor.id === userId) {
      throw new ForbiddenError('You cannot reset your own two-factor sign-in; turn it off from your profile');
    }
    await this.changeSignIn(actor, userId, 'user.two_factor_reset', async (trx) => {
      const wasOn = await this.twoFactor.reset(trx, userId);
      return { result: undefined, oldValue: { two_factor: wasOn }, newValue: { two_factor: false } };
    });
  }

  /**
   * Sets a temporary password: the user's sessions end, and their next sign-in may do nothing but change it
   * (the password itself is never audited).
   */
  async resetPassword(actor: Actor, userId: number, input: PasswordResetRequest): Promise<void> {
    if (actor.id === userId) {
      throw new ForbiddenError('You cannot reset your own password; change it from your profile');
    }
    assertAcceptablePassword(input.temporary_password, 'temporary_password');
    const passwordHash = await this.hasher.hash(input.temporary_password);
    await this.changeSignIn(actor, userId, 'user.password_reset', async (trx) => {
      await this.accounts.setTemporaryPassword(trx, userId, passwordHash);
      const revoked = await this.sessions.revokeAllForUser(trx, userId, 'password_reset');
      return { result: undefined, newValue: { password_change_required: true, sessions_revoked: revoked } };
    });
  }

  /**
   * One change to how a user signs in, in one transaction: held to the rule of user edits (actOn), the
   * user's pending sign-in challenges expire with it and it is audited as `action`; once it commits, the
   * signed-in principals on every instance learn of it.
   */
  private async changeSignIn<T>(
    actor: Actor,
    userId: number,
    action: string,
    change: (trx: Executor) => Promise<{ result: T } & Pick<AuditEvent, 'oldValue' | 'newValue'>>,
  ): Promise<T> {
    const result = await this.db.transaction().execute(async (trx) => {
      const user = await this.actOn(trx, actor, userId);
      const { result, oldValue, newValue } = await change(trx);
      await this.twoFactor.expireChallenges(trx, userId);
      await this.audit.record(trx, actor, {
        action,
        resourceType: 'user',
        resourceId: userId,
        resourceName: user.username,
        oldValue,
        newValue,
      });
      return result;
    });
    await this.accessChanged();
    return result;
  }

  private async target(db: Executor, userId: number) {
    const account = await this.accounts.find(db, userId);
    if (!account) throw new NotFoundError(`User ${userId} does not exist`);
    return account;
  }

  /** The user, if the actor may act on them: editing someone who holds more than you is escalation. */
  private async actOn(db: Executor, actor: Actor, userId: number) {
    const user = await this.target(db, userId);
    const roles = await this.roles.rolesOfUsers(db, [userId]);
    await this.roles.assertCanGrant(
      db,
      actor,
      roles.map((r) => ({ name: r.name, permissions: parsePermissions(r) })),
    );
    return user;
  }
}
