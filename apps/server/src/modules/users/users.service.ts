import {
  ADMIN_ROLE,
  type CreateUserInput,
  type UpdateUserInput,
  type User,
  type UserListQuery,
  type UserListResponse,
} from '@lumi/contract';
import type { Kysely } from 'kysely';
import type { Database, Executor, UserRow } from '../../db/database.js';
import { ConflictError, ForbiddenError, NotFoundError } from '../../lib/errors.js';
import type { PasswordHasher } from '../../lib/password.js';
import { isoTime, type Clock } from '../../lib/time.js';
import type { Actor, AuditService } from '../audit/audit.service.js';
import { parsePermissions, type RolesService } from '../roles/roles.service.js';
import type { SessionsService } from '../sessions/sessions.service.js';
import { assertAcceptablePassword } from './accounts.service.js';
import * as repo from './users.repository.js';

type RoleRef = { user_id: number; id: number; name: string; permissions: string };

function toUser(row: UserRow, roles: RoleRef[]): User {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    name: row.name,
    roles: roles.filter((r) => r.user_id === row.id).map((r) => ({ id: r.id, name: r.name })),
    is_active: row.is_active === 1,
    two_factor_enabled: row.totp_secret !== null,
    password_change_required: row.must_change_password === 1,
    last_login: row.last_login,
    created_at: row.created_at,
  };
}

function grantOf(row: { name: string; permissions: string }) {
  return { name: row.name, permissions: parsePermissions(row) };
}

/** What the audit log keeps of a user: never the password hash. */
function auditView(user: User) {
  const { id, username, email, name, is_active } = user;
  return { id, username, email, name, is_active, roles: user.roles.map((r) => r.name) };
}

export class UsersService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly hasher: PasswordHasher,
    private readonly roles: RolesService,
    private readonly sessions: SessionsService,
    private readonly audit: AuditService,
    private readonly now: Clock,
    /** Called after a change to a user's roles, activity or existence commits (signed-in principals on every instance). */
    private readonly accessChanged: () => Promise<void>,
  ) {}

  async list(query: UserListQuery): Promise<UserListResponse> {
    const { rows, total } = await repo.listUsers(this.db, {
      search: query.search || undefined,
      limit: query.limit,
      offset: (query.page - 1) * query.limit,
    });
    const roles = await this.roles.rolesOfUsers(
      this.db,
      rows.map((r) => r.id),
    );
    return {
      users: rows.map((row) => toUser(row, roles)),
      total,
      page: query.page,
      pages: Math.max(1, Math.ceil(total / query.limit)),
    };
  }

  get(id: number): Promise<User> {
    return this.load(this.db, id);
  }

  private async load(db: Executor, id: number): Promise<User> {
    const row = await repo.findUserById(db, id);
    if (!row) throw new NotFoundError(`User ${id} does not exist`);
    return toUser(row, await this.roles.rolesOfUsers(db, [id]));
  }

  countUsers() {
    return repo.countUsers(this.db);
  }

  async create(actor: Actor, input: CreateUserInput): Promise<User> {
    assertAcceptablePassword(input.password, 'password');
    // A taken username or email is answered before the costly hash (about a second); the check is made
    // again in the transaction, where a create racing this one is caught.
    await this.assertUnique(this.db, input.username, input.email);
    const passwordHash = await this.hasher.hash(input.password);
    return this.db.transaction().execute(async (trx) => {
      await this.assertUnique(trx, input.username, input.email);
      const roleRows = await this.roles.requireRoles(trx, input.roles);
      await this.roles.assertCanGrant(trx, actor, roleRows.map(grantOf));
      const id = await repo.insertUser(trx, {
        username: input.username,
        email: input.email,
        name: input.name,
        password_hash: passwordHash,
        now: isoTime(this.now()),
      });
      await repo.setUserRoles(trx, id, [...new Set(input.roles)]);
      const user = await this.load(trx, id);
      await this.audit.record(trx, actor, {
        action: 'user.created',
        resourceType: 'user',
        resourceId: id,
        resourceName: user.username,
        newValue: auditView(user),
      });
      return user;
    });
  }

  /** Creates the first admin when the database has no user yet; returns false when users exist. */
  async createFirstAdmin(username: string, password: string): Promise<boolean> {
    const adminRole = await this.roles.findByName(this.db, ADMIN_ROLE);
    if (!adminRole) throw new Error('The admin role is missing; run the migrations and seed first');
    const passwordHash = await this.hasher.hash(password);
    return this.db.transaction().execute(async (trx) => {
      if ((await repo.countUsers(trx)) > 0) return false;
      const id = await repo.insertUser(trx, {
        username,
        // A placeholder that passes the contract's email rule ('user@localhost' does not), so the admin
        // can save the profile form and be edited without first inventing an address.
        email: `${username}@localhost.localdomain`,
        name: 'Administrator',
        password_hash: passwordHash,
        now: isoTime(this.now()),
      });
      await repo.setUserRoles(trx, id, [adminRole.id]);
      await this.audit.record(
        trx,
        { id: null, username: null, ip: null, userAgent: 'lumi-admin start-up' },
        {
          action: 'user.created',
          resourceType: 'user',
          resourceId: id,
          resourceName: username,
          newValue: { username, roles: [ADMIN_ROLE] },
        },
      );
      return true;
    });
  }

  async update(actor: Actor, id: number, input: UpdateUserInput): Promise<User> {
    const user = await this.db.transaction().execute(async (trx) => {
      const before = await this.load(trx, id);
      const roleRows = await this.roles.requireRoles(trx, input.roles);
      // Editing someone who holds more than you, or giving more than you hold, is escalation.
      const currentRows = await this.roles.requireRoles(
        trx,
        before.roles.map((r) => r.id),
      );
      await this.roles.assertCanGrant(trx, actor, [...currentRows, ...roleRows].map(grantOf));
      const willBeAdmin = roleRows.some((r) => r.name === ADMIN_ROLE);
      const wasAdmin = before.roles.some((r) => r.name === ADMIN_ROLE);
      const willBeActive = input.is_active ?? before.is_active;

      if (actor.id === id) {
        if (!willBeActive) throw new ForbiddenError('You cannot deactivate your own account');
        if (wasAdmin && !willBeAdmin)
          throw new ForbiddenError('You cannot remove the admin role from yourself');
      }
      if (wasAdmin && before.is_active && (!willBeAdmin || !willBeActive)) {
        await this.assertNotLastAdmin(trx, id, !willBeActive ? 'deactivated' : 'demoted');
      }
      const other = await repo.findUserByEmail(trx, input.email);
      if (other && other.id !== id)
        throw new ConflictError(`The email ${input.email} is already used by another user`);

      await repo.updateUser(trx, id, {
        email: input.email,
        name: input.name,
        is_active: willBeActive,
        now: isoTime(this.now()),
      });
      await repo.setUserRoles(trx, id, [...new Set(input.roles)]);
      if (before.is_active && !willBeActive)
        await this.sessions.revokeAllForUser(trx, id, 'user_deactivated');
      const after = await this.load(trx, id);
      await this.audit.record(trx, actor, {
        action: 'user.updated',
        resourceType: 'user',
        resourceId: id,
        resourceName: after.username,
        oldValue: auditView(before),
        newValue: auditView(after),
      });
      return after;
    });
    await this.accessChanged();
    return user;
  }

  async remove(actor: Actor, id: number): Promise<void> {
    if (actor.id === id) throw new ForbiddenError('You cannot delete your own account');
    await this.db.transaction().execute(async (trx) => {
      const user = await this.load(trx, id);
      const currentRows = await this.roles.requireRoles(
        trx,
        user.roles.map((r) => r.id),
      );
      await this.roles.assertCanGrant(trx, actor, currentRows.map(grantOf));
      if (user.is_active && user.roles.some((r) => r.name === ADMIN_ROLE)) {
        await this.assertNotLastAdmin(trx, id, 'deleted');
      }
      // Sessions go with the user (foreign key cascade), which ends them at once. A parallel delete may
      // have removed it since it was read: then it is not there for this request, and nothing is audited.
      if (!(await repo.deleteUser(trx, id))) throw new NotFoundError(`User ${id} does not exist`);
      await this.audit.record(trx, actor, {
        action: 'user.deleted',
        resourceType: 'user',
        resourceId: id,
        resourceName: user.username,
        oldValue: auditView(user),
      });
    });
    await this.accessChanged();
  }

  private async assertUnique(db: Executor, username: string, email: string) {
    if (await repo.findUserByUsername(db, username)) {
      throw new ConflictError(`The username ${username} is already taken`);
    }
    if (await repo.findUserByEmail(db, email)) {
      throw new ConflictError(`The email ${email} is already used by another user`);
    }
  }

  /** The usernames of those of `ids` that still exist (the audit log links to them). */
  currentNames(ids: number[]): Promise<Map<number, string>> {
    return repo.usernamesById(this.db, ids);
  }

  private async assertNotLastAdmin(db: Executor, userId: number, verb: string) {
    const adminRole = await this.roles.findByName(db, ADMIN_ROLE);
    if (adminRole && (await repo.countOtherActiveAdmins(db, adminRole.id, userId)) === 0) {
      throw new ConflictError(`The last active admin cannot be ${verb}; make another user an admin first`);
    }
  }
}
