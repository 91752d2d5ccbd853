import type { Insertable, Kysely } from 'kysely';
import type { ApiKeyRow, ApiKeysTable } from '../../db/telemetry-tables.js';
import type { Database, Executor } from '../../db/database.js';
import { ReusableQuery } from '../../db/reusable-query.js';

export async function insertKey(db: Executor, row: Omit<Insertable<ApiKeysTable>, 'id'>): Promise<number> {
  const inserted = await db.insertInto('api_keys').values(row).returning('id').executeTakeFirstOrThrow();
  return inserted.id;
}

/** Newest first, revoked ones included (the list shows their state). */
export function listKeys(db: Executor): Promise<ApiKeyRow[]> {
  return db.selectFrom('api_keys').selectAll().orderBy('id', 'desc').execute();
}

export function findKey(db: Executor, id: number): Promise<ApiKeyRow | undefined> {
  return db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
}

const byHash = new ReusableQuery(1, (db, keyHash: string) =>
  db.selectFrom('api_keys').selectAll().where('key_hash', '=', keyHash),
);

/** The key of a bearer token's hash: compiled once, as every request of a bot reads it. */
export async function findKeyByHash(db: Kysely<Database>, keyHash: string): Promise<ApiKeyRow | undefined> {
  const [row] = await byHash.execute(db, [keyHash]);
  return row;
}

/** A key not revoked yet with this name, whatever its case. */
export function findUnrevokedByName(db: Executor, name: string): Promise<ApiKeyRow | undefined> {
  return db
    .selectFrom('api_keys')
    .selectAll()
    .where((eb) => eb(eb.fn('lower', ['name']), '=', name.toLowerCase()))
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
}

export async function updateKeyContent(
  db: Executor,
  id: number,
  content: Pick<ApiKeyRow, 'capture_content' | 'content_redactions'>,
): Promise<void> {
  await db.updateTable('api_keys').set(content).where('id', '=', id).execute();
}

export async function revokeKey(db: Executor, id: number, at: string): Promise<boolean> {
  const result = await db
    .updateTable('api_keys')
    .set({ revoked_at: at })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Records a use unless one was recorded after `unlessAfter`, so several instances write rarely too. */
export async function touchKey(db: Executor, id: number, at: string, unlessAfter: string): Promise<void> {
  await db
    .updateTable('api_keys')
    .set({ last_used_at: at })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<=', unlessAfter)]))
    .execute();
}
