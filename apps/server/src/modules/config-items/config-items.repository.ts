import type { Insertable } from 'kysely';
import type { ConfigItemRevisionsTable, ConfigItemRow, ConfigItemsTable } from '../../db/database.js';
import type { Executor } from '../../lib/db-types.js';

export type ConfigItemFields = Omit<Insertable<ConfigItemsTable>, 'id'>;

export function listItems(db: Executor, domain: string): Promise<ConfigItemRow[]> {
  return db
    .selectFrom('config_items')
    .selectAll()
    .where('domain', '=', domain)
    .orderBy('priority', 'desc')
    .orderBy('name_key')
    .execute();
}

export function findItem(db: Executor, domain: string, id: number): Promise<ConfigItemRow | undefined> {
  return db
    .selectFrom('config_items')
    .selectAll()
    .where('domain', '=', domain)
    .where('id', '=', id)
    .executeTakeFirst();
}

export function findItemByName(
  db: Executor,
  domain: string,
  name: string,
): Promise<ConfigItemRow | undefined> {
  return db
    .selectFrom('config_items')
    .selectAll()
    .where('domain', '=', domain)
    .where('name_key', '=', name.toLowerCase())
    .executeTakeFirst();
}

export async function insertItem(db: Executor, fields: ConfigItemFields): Promise<number> {
  const row = await db.insertInto('config_items').values(fields).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** Writes only when the row is still at `expectedVersion`; false means someone else changed it first. */
export async function updateItem(
  db: Executor,
  id: number,
  expectedVersion: number,
  fields: Partial<ConfigItemFields>,
): Promise<boolean> {
  const result = await db
    .updateTable('config_items')
    .set(fields)
    .where('id', '=', id)
    .where('version', '=', expectedVersion)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function deleteItem(db: Executor, id: number, expectedVersion: number): Promise<boolean> {
  const result = await db
    .deleteFrom('config_items')
    .where('id', '=', id)
    .where('version', '=', expectedVersion)
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

export async function insertRevision(
  db: Executor,
  revision: Omit<Insertable<ConfigItemRevisionsTable>, 'id'>,
) {
  await db.insertInto('config_item_revisions').values(revision).execute();
}

export function listRevisions(db: Executor, itemId: number) {
  return db
    .selectFrom('config_item_revisions')
    .selectAll()
    .where('item_id', '=', itemId)
    .orderBy('revision', 'desc')
    .execute();
}

export function findRevision(db: Executor, itemId: number, revision: number) {
  return db
    .selectFrom('config_item_revisions')
    .selectAll()
    .where('item_id', '=', itemId)
    .where('revision', '=', revision)
    .executeTakeFirst();
}

/** Every active item of every domain, for the bot. */
export function listActiveItems(db: Executor): Promise<ConfigItemRow[]> {
  return db
    .selectFrom('config_items')
    .selectAll()
    .where('is_active', '=', 1)
    .orderBy('domain')
    .orderBy('priority', 'desc')
    .orderBy('name_key')
    .execute();
}
