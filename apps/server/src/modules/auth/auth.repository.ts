import type { Executor } from '../../db/database.js';

export async function recordLoginFailure(db: Executor, usernameKey: string, ip: string, now: string) {
  await db
    .insertInto('login_failures')
    .values({ username_key: usernameKey, ip_address: ip, created_at: now })
    .execute();
}

/** Failures since `since` for the username and for the address, with the oldest of each. */
export async function recentFailures(db: Executor, usernameKey: string, ip: string, since: string) {
  const [byUser, byIp] = await Promise.all(
    (['username_key', 'ip_address'] as const).map((column) =>
      db
        .selectFrom('login_failures')
        .select((eb) => [eb.fn.countAll<number | string>().as('n'), eb.fn.min('created_at').as('oldest')])
        .where(column, '=', column === 'username_key' ? usernameKey : ip)
        .where('created_at', '>=', since)
        .executeTakeFirstOrThrow(),
    ),
  );
  return {
    user: { count: Number(byUser!.n), oldest: byUser!.oldest as string | null },
    ip: { count: Number(byIp!.n), oldest: byIp!.oldest as string | null },
  };
}

export async function clearUserFailures(db: Executor, usernameKey: string) {
  await db.deleteFrom('login_failures').where('username_key', '=', usernameKey).execute();
}

export async function pruneFailures(db: Executor, before: string) {
  await db.deleteFrom('login_failures').where('created_at', '<', before).execute();
}
