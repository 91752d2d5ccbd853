import { sql } from 'kysely';
import type { Executor, UserRow } from '../../db/database.js';

export function findUserById(db: Executor, id: number): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findUserByUsername(db: Executor, username: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('username_key', '=', username.toLowerCase())
    .executeTakeFirst();
}

export function findUserByEmail(db: Executor, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email_key', '=', email.toLowerCase()).executeTakeFirst();
}

export async function countUsers(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Escapes LIKE wildcards so a search for '50%' means the characters, not a pattern. */
function likePattern(search: string): string {
  return `%${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function searchFilter(db: Executor, search: string | undefined) {
  let q = db.selectFrom('users');
  if (search) {
    const pattern = likePattern(search);
    q = q.where((eb) =>
      eb.or(
        (['username_key', 'email_key', 'name'] as const).map(
          (column) =>
            // ESCAPE is explicit because SQLite has no default escape character.
            sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`,
        ),
      ),
    );
  }
  return q;
}

export async function listUsers(db: Executor, options: { search?: string; limit: number; offset: number }) {
  const base = searchFilter(db, options.search);
  const [rows, count] = await Promise.all([
    base.selectAll().orderBy('username_key').limit(options.limit).offset(options.offset).execute(),
    base.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

export async function insertUser(
  db: Executor,
  user: { username: string; email: string; name: string; password_hash: string; now: string },
): Promise<number> {
  const row = await db
    .insertInto('users')
    .values({
      username: user.username,
      username_key: user.username.toLowerCase(),
      email: user.email,
      email_key: user.email.toLowerCase(),
      name: user.name,
      password_hash: user.password_hash,
      is_active: 1,
      last_login: null,
      created_at: user.now,
      updated_at: user.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateUser(
  db: Executor,
  id: number,
  changes: {
    email?: string;
    name?: string;
    is_active?: boolean;
    password_hash?: string;
    last_login?: string;
    must_change_password?: boolean;
    now: string;
  },
): Promise<void> {
  await db
    .updateTable('users')
    .set({
      ...(changes.email !== undefined && { email: changes.email, email_key: changes.email.toLowerCase() }),
      ...(changes.name !== undefined && { name: changes.name }),
      ...(changes.is_active !== undefined && { is_active: changes.is_active ? 1 : 0 }),
      ...(changes.password_hash !== undefined && { password_hash: changes.password_hash }),
      ...(changes.last_login !== undefined && { last_login: changes.last_login }),
      ...(changes.must_change_password !== undefined && {
        must_change_password: changes.must_change_password ? 1 : 0,
      }),
      updated_at: changes.now,
    })
    .where('id', '=', id)
    .execute();
}

export async function setUserRoles(db: Executor, userId: number, roleIds: number[]): Promise<void> {
  await db.deleteFrom('user_roles').where('user_id', '=', userId).execute();
  if (roleIds.length > 0) {
    await db
      .insertInto('user_roles')
      .values(roleIds.map((role_id) => ({ user_id: userId, role_id })))
      .execute();
  }
}

/** Deletes the user; false when there was none to delete (a parallel delete got there first). */
export async function deleteUser(db: Executor, id: number): Promise<boolean> {
  const result = await db.deleteFrom('users').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Active users holding the admin role, other than `exceptUserId`. */
export async function countOtherActiveAdmins(
  db: Executor,
  adminRoleId: number,
  exceptUserId: number,
): Promise<number> {
  const row = await db
    .selectFrom('users')
    .innerJoin('user_roles', 'user_roles.user_id', 'users.id')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('user_roles.role_id', '=', adminRoleId)
    .where('users.is_active', '=', 1)
    .where('users.id', '!=', exceptUserId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The usernames of those of `ids` that still exist. */
export async function usernamesById(db: Executor, ids: number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('users').select(['id', 'username']).where('id', 'in', ids).execute();
  return new Map(rows.map((row) => [row.id, row.username]));
}
