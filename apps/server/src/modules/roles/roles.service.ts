import { ADMIN_ROLE, ALL_PERMISSIONS, SEEDED_ROLES, type Role, type RoleInput } from '@lumi/contract';
import type { Kysely } from 'kysely';
import { AuditedEntity } from '../../db/audited-entity.js';
import type { Database, Executor, RoleRow } from '../../db/database.js';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../../lib/errors.js';
import { isoTime, type Clock } from '../../lib/time.js';
import type { Actor, AuditService } from '../audit/audit.service.js';
import * as repo from './roles.repository.js';

export function parsePermissions(row: Pick<RoleRow, 'permissions'>): string[] {
  const value: unknown = JSON.parse(row.permissions);
  return Array.isArray(value) ? value.filter((p): p is string => typeof p === 'string') : [];
}

function toRole(
  row: Awaited<ReturnType<typeof repo.listRoles>>[number] | (RoleRow & { user_count: number }),
): Role {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    permissions: parsePermissions(row),
    built_in: row.built_in === 1,
    user_count: Number(row.user_count),
    require_two_factor: row.require_two_factor === 1,
  };
}

function sameGrants(role: Role, input: RoleInput): boolean {
  const permissions = [...new Set(input.permissions)].sort();
  return (
    role.name === input.name &&
    role.description === input.description &&
    role.permissions.length === permissions.length &&
    [...role.permissions].sort().every((p, i) => p === permissions[i])
  );
}

export class RolesService {
  private readonly roles: AuditedEntity<Role>;

  constructor(
    private readonly db: Kysely<Database>,
    audit: AuditService,
    private readonly now: Clock,
    /** Called after a change to a role's permissions or existence commits (signed-in principals on every instance). */
    private readonly accessChanged: () => Promise<void>,
  ) {
    this.roles = new AuditedEntity(audit, {
      load: (db, id) => this.load(db, id),
      delete: repo.deleteRole,
      resourceType: 'role',
      name: (role) => role.name,
    });
  }

  /** Creates the seeded roles that do not exist yet (admin, operator, viewer). */
  async seed(): Promise<void> {
    const now = isoTime(this.now());
    for (const role of SEEDED_ROLES) {
      if (await repo.findRoleByName(this.db, role.name)) continue;
      await repo.insertRole(this.db, {
        ...role,
        permissions: [...role.permissions],
        built_in: role.name === ADMIN_ROLE,
        now,
      });
    }
  }

  async list(): Promise<Role[]> {
    return (await repo.listRoles(this.db)).map(toRole);
  }

  /** The roles with these ids, or a 422 naming the ids that do not exist. */
  async requireRoles(db: Executor, ids: number[]): Promise<RoleRow[]> {
    const unique = [...new Set(ids)];
    const rows = await repo.findRolesByIds(db, unique);
    const missing = unique.filter((id) => !rows.some((r) => r.id === id));
    if (missing.length > 0) throw ValidationError.field('roles', `Unknown role id: ${missing.join(', ')}`);
    return rows;
  }

  /**
   * No privilege escalation: an operator may grant only what they hold themselves. The admin role and '*'
   * need an admin; any other permission needs that permission. Deleting a role is held to the same rule
   * (`verb` 'delete'), so a user manager cannot remove a role stronger than their own. `actor.id` null is
   * the system (seeding).
   */
  async assertCanGrant(
    db: Executor,
    actor: Actor,
    grants: Array<{ name: string; permissions: string[] }>,
    verb: 'grant' | 'delete' = 'grant',
  ) {
    if (actor.id === null) return;
    const own = (await repo.rolesOfUsers(db, [actor.id])).map((r) => ({
      name: r.name,
      permissions: parsePermissions(r),
    }));
    const isAdmin = own.some((r) => r.name === ADMIN_ROLE || r.permissions.includes(ALL_PERMISSIONS));
    if (isAdmin) return;
    for (const grant of grants) {
      const missing =
        grant.name === ADMIN_ROLE || grant.permissions.includes(ALL_PERMISSIONS)
          ? ALL_PERMISSIONS
          : grant.permissions.find((p) => !own.some((r) => r.permissions.includes(p)));
      if (missing) {
        throw new ForbiddenError(
          `You cannot ${verb} '${grant.name}': it includes '${missing}', which you do not have yourself`,
        );
      }
    }
  }

  rolesOfUsers(db: Executor, userIds: number[]) {
    return repo.rolesOfUsers(db, userIds);
  }

  findByName(db: Executor, name: string) {
    return repo.findRoleByName(db, name);
  }

  async create(actor: Actor, input: RoleInput): Promise<Role> {
    return this.db.transaction().execute((trx) =>
      this.roles.create(trx, actor, async () => {
        if (await repo.findRoleByName(trx, input.name)) {
          throw new ConflictError(`A role named '${input.name}' already exists`);
        }
        await this.assertCanGrant(trx, actor, [input]);
        return repo.insertRole(trx, { ...input, built_in: false, now: isoTime(this.now()) });
      }),
    );
  }

  async update(actor: Actor, id: number, input: RoleInput): Promise<Role> {
    const role = await this.db.transaction().execute((trx) =>
      this.roles.update(trx, actor, id, async (before) => {
        // A built-in role's grants are fixed; only whether it requires two-factor sign-in may change.
        if (before.built_in && !sameGrants(before, input)) {
          throw new ForbiddenError(
            `The built-in role '${before.name}' cannot be changed, except whether it requires two-factor sign-in`,
          );
        }
        const other = await repo.findRoleByName(trx, input.name);
        if (other && other.id !== id) throw new ConflictError(`A role named '${input.name}' already exists`);
        await this.assertCanGrant(trx, actor, [before, input]);
        await repo.updateRole(trx, id, { ...input, now: isoTime(this.now()) });
      }),
    );
    await this.accessChanged();
    return role;
  }

  async remove(actor: Actor, id: number): Promise<void> {
    await this.db.transaction().execute((trx) =>
      this.roles.remove(trx, actor, id, async (role) => {
        if (role.built_in) throw new ForbiddenError(`The built-in role '${role.name}' cannot be deleted`);
        await this.assertCanGrant(trx, actor, [role], 'delete');
        const users = await repo.countUsersWithRole(trx, id);
        if (users > 0) {
          throw new ConflictError(
            `The role '${role.name}' is still assigned to ${users} user${users === 1 ? '' : 's'}; remove it from them first`,
          );
        }
      }),
    );
    await this.accessChanged();
  }

  private async load(db: Executor, id: number): Promise<Role> {
    const row = await repo.findRoleById(db, id);
    if (!row) throw new NotFoundError(`Role ${id} does not exist`);
    return toRole({ ...row, user_count: await repo.countUsersWithRole(db, id) });
  }
}
