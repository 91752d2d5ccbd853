import type { Executor, RoleRow } from '../../db/database.js';

/** A role's columns: what the list selects and, since it counts users per role, groups by. */
const ROLE_COLUMNS = [
  'roles.id',
  'roles.name',
  'roles.description',
  'roles.permissions',
  'roles.built_in',
  'roles.require_two_factor',
] as const;

export async function listRoles(db: Executor) {
  return db
    .selectFrom('roles')
    .leftJoin('user_roles', 'user_roles.role_id', 'roles.id')
    .select((eb) => [...ROLE_COLUMNS, eb.fn.count<number | string>('user_roles.user_id').as('user_count')])
    .groupBy([...ROLE_COLUMNS])
    .orderBy('roles.id')
    .execute();
}

export function findRoleById(db: Executor, id: number): Promise<RoleRow | undefined> {
  return db.selectFrom('roles').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findRoleByName(db: Executor, name: string): Promise<RoleRow | undefined> {
  return db.selectFrom('roles').selectAll().where('name', '=', name).executeTakeFirst();
}

export function findRolesByIds(db: Executor, ids: number[]): Promise<RoleRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('roles').selectAll().where('id', 'in', ids).execute();
}

/** Roles of several users at once: one query for a whole page of users. */
export function rolesOfUsers(db: Executor, userIds: number[]) {
  if (userIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('user_roles')
    .innerJoin('roles', 'roles.id', 'user_roles.role_id')
    .select(['user_roles.user_id', 'roles.id', 'roles.name', 'roles.permissions', 'roles.require_two_factor'])
    .where('user_roles.user_id', 'in', userIds)
    .orderBy('roles.id')
    .execute();
}

export async function insertRole(
  db: Executor,
  role: {
    name: string;
    description: string;
    permissions: string[];
    built_in: boolean;
    require_two_factor?: boolean;
    now: string;
  },
): Promise<number> {
  const row = await db
    .insertInto('roles')
    .values({
      name: role.name,
      description: role.description,
      permissions: JSON.stringify(role.permissions),
      built_in: role.built_in ? 1 : 0,
      require_two_factor: role.require_two_factor ? 1 : 0,
      created_at: role.now,
      updated_at: role.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateRole(
  db: Executor,
  id: number,
  role: {
    name: string;
    description: string;
    permissions: string[];
    require_two_factor?: boolean;
    now: string;
  },
): Promise<void> {
  await db
    .updateTable('roles')
    .set({
      name: role.name,
      description: role.description,
      permissions: JSON.stringify(role.permissions),
      ...(role.require_two_factor !== undefined && { require_two_factor: role.require_two_factor ? 1 : 0 }),
      updated_at: role.now,
    })
    .where('id', '=', id)
    .execute();
}

/** False when there was no such row (another request deleted it first). */
export async function deleteRole(db: Executor, id: number): Promise<boolean> {
  const result = await db.deleteFrom('roles').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

export async function countUsersWithRole(db: Executor, roleId: number): Promise<number> {
  const row = await db
    .selectFrom('user_roles')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('role_id', '=', roleId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
