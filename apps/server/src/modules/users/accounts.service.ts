import {
  MESSAGES,
  type ChangePasswordInput,
  type PendingAction,
  type Profile,
  type SessionUser,
  type UpdateProfileInput,
} from '@lumi/contract';
import type { Kysely } from 'kysely';
import type { Database, Executor, UserRow } from '../../db/database.js';
import { isCommonPassword } from '../../lib/common-passwords.js';
import { ConflictError, NotFoundError, ValidationError } from '../../lib/errors.js';
import type { PasswordHasher } from '../../lib/password.js';
import { isoTime, type Clock } from '../../lib/time.js';
import type { Actor, AuditService } from '../audit/audit.service.js';
import { parsePermissions, type RolesService } from '../roles/roles.service.js';
import * as repo from './users.repository.js';

/** A user as signing in and sessions see them. */
export interface Account {
  id: number;
  username: string;
  email: string;
  name: string;
  active: boolean;
  /** Signed in with a temporary password an admin set (docs/operators/security.md, "Temporary passwords"). */
  mustChangePassword: boolean;
  twoFactorEnabled: boolean;
}

function toAccount(row: UserRow): Account {
  const { id, username, email, name } = row;
  return {
    id,
    username,
    email,
    name,
    active: row.is_active === 1,
    mustChangePassword: row.must_change_password === 1,
    twoFactorEnabled: row.totp_secret !== null,
  };
}

/** A new password, checked and hashed by preparePasswordChange, for recordPasswordChange. */
export interface PasswordChange {
  userId: number;
  passwordHash: string;
}

/** A new password must not be one of the most common ones (the length rules are in the contract). */
export function assertAcceptablePassword(password: string, path: string): void {
  if (isCommonPassword(password)) throw ValidationError.field(path, MESSAGES.passwordCommon);
}

/**
 * Each user's own account: checking a sign-in, the signed-in user, the profile, recording sign-ins and
 * password changes. Authentication reaches users only through these, never through their rows.
 */
export class AccountsService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly hasher: PasswordHasher,
    private readonly roles: RolesService,
    private readonly audit: AuditService,
    private readonly now: Clock,
  ) {}

  /**
   * The account a sign-in names, and whether the password is its own. An unknown username costs a hash
   * all the same, so the answer's timing does not tell which usernames exist.
   */
  async checkCredentials(
    username: string,
    password: string,
  ): Promise<{ account?: Account; passwordValid: boolean }> {
    const row = await repo.findUserByUsername(this.db, username);
    if (!row) return { passwordValid: await this.hasher.verifyDummy(password) };
    return { account: toAccount(row), passwordValid: await this.hasher.verify(password, row.password_hash) };
  }

  /** Whether `password` is the user's own (disabling two-factor sign-in asks for it again). */
  async passwordMatches(userId: number, password: string): Promise<boolean> {
    const row = await repo.findUserById(this.db, userId);
    if (!row) return this.hasher.verifyDummy(password);
    return this.hasher.verify(password, row.password_hash);
  }

  /** One of the user's roles requires two-factor sign-in. */
  async requiresTwoFactor(db: Executor, userId: number): Promise<boolean> {
    return (await this.roles.rolesOfUsers(db, [userId])).some((r) => r.require_two_factor === 1);
  }

  async find(db: Executor, id: number): Promise<Account | undefined> {
    const row = await repo.findUserById(db, id);
    return row && toAccount(row);
  }

  /**
   * The signed-in user with the permissions of each role, as the console needs it, and what they must do
   * before anything else: change a temporary password first, then set up two-factor sign-in if a role
   * requires it.
   */
  async sessionUser(db: Executor, account: Account): Promise<SessionUser> {
    const rows = await this.roles.rolesOfUsers(db, [account.id]);
    const roles = rows.map((r) => ({ id: r.id, name: r.name, permissions: parsePermissions(r) }));
    let pending_action: PendingAction | null = null;
    if (account.mustChangePassword) pending_action = 'password_change';
    else if (!account.twoFactorEnabled && rows.some((r) => r.require_two_factor === 1)) {
      pending_action = 'two_factor_setup';
    }
    const { id, username, email, name } = account;
    return { id, username, email, name, role: roles[0]?.name ?? '', roles, pending_action };
  }

  async recordLogin(db: Executor, userId: number) {
    const now = isoTime(this.now());
    await repo.updateUser(db, userId, { last_login: now, now });
  }

  profile(userId: number): Promise<Profile> {
    return this.load(this.db, userId);
  }

  async updateProfile(actor: Actor & { id: number }, changes: UpdateProfileInput): Promise<Profile> {
    return this.db.transaction().execute(async (trx) => {
      const before = await this.load(trx, actor.id);
      if (changes.email !== undefined) {
        const other = await repo.findUserByEmail(trx, changes.email);
        if (other && other.id !== actor.id) {
          throw new ConflictError(`The email ${changes.email} is already used by another user`);
        }
      }
      await repo.updateUser(trx, actor.id, { ...changes, now: isoTime(this.now()) });
      const after = await this.load(trx, actor.id);
      await this.audit.record(trx, actor, {
        action: 'profile.updated',
        resourceType: 'user',
        resourceId: actor.id,
        resourceName: after.username,
        oldValue: { name: before.name, email: before.email },
        newValue: { name: after.name, email: after.email },
      });
      return after;
    });
  }

  /**
   * Checks a change of one's own password (the current one is right, the new one differs and is acceptable;
   * 422 on the field otherwise) and hashes the new one: outside any transaction, as scrypt takes a while.
   */
  async preparePasswordChange(userId: number, input: ChangePasswordInput): Promise<PasswordChange> {
    const row = await repo.findUserById(this.db, userId);
    if (!row || !(await this.hasher.verify(input.current_password, row.password_hash))) {
      throw ValidationError.field('current_password', 'Current password is incorrect');
    }
    if (input.new_password === input.current_password) {
      throw ValidationError.field('new_password', 'The new password must differ from the current one');
    }
    assertAcceptablePassword(input.new_password, 'new_password');
    return { userId, passwordHash: await this.hasher.hash(input.new_password) };
  }

  async recordPasswordChange(db: Executor, change: PasswordChange) {
    await repo.updateUser(db, change.userId, {
      password_hash: change.passwordHash,
      must_change_password: false,
      now: isoTime(this.now()),
    });
  }

  /** A temporary password an admin set: the user must change it before anything else. */
  async setTemporaryPassword(db: Executor, userId: number, passwordHash: string) {
    await repo.updateUser(db, userId, {
      password_hash: passwordHash,
      must_change_password: true,
      now: isoTime(this.now()),
    });
  }

  private async load(db: Executor, id: number): Promise<Profile> {
    const account = await this.find(db, id);
    if (!account) throw new NotFoundError(`User ${id} does not exist`);
    const { username, email, name } = account;
    return { id, username, email, name, two_factor_enabled: account.twoFactorEnabled };
  }
}
