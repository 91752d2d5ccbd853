import type { ConfigDomain, ConfigItem, ConfigRevision, ConfigSnapshot } from '@lumi/contract';
import type { ConfigItemRow, Executor } from '../../db/database.js';

/**
 * All SQL of the configuration items, and their storage encoding: content as JSON text or plain text,
 * booleans as 0/1, tags and revision snapshots as JSON text. Callers see contract values only.
 */

function toItem(row: ConfigItemRow): ConfigItem {
  return {
    id: row.id,
    domain: row.domain as ConfigDomain,
    name: row.name,
    description: row.description,
    content: row.content_type === 'json' ? (JSON.parse(row.content) as Record<string, unknown>) : row.content,
    is_active: row.is_active === 1,
    tags: JSON.parse(row.tags) as string[],
    priority: row.priority,
    version: row.version,
    created_at: row.created_at,
    updated_at: row.updated_at,
    updated_by: row.updated_by,
  };
}

function columnsOf(values: ConfigSnapshot) {
  return {
    name: values.name,
    name_key: values.name.toLowerCase(),
    description: values.description,
    content_type: typeof values.content === 'string' ? 'text' : 'json',
    content: typeof values.content === 'string' ? values.content : JSON.stringify(values.content),
    is_active: values.is_active ? 1 : 0,
    tags: JSON.stringify(values.tags),
    priority: values.priority,
  };
}

/** Who wrote a version, and when. */
export interface Stamp {
  at: string;
  by: string | null;
}

export async function listItems(db: Executor, domain: ConfigDomain): Promise<ConfigItem[]> {
  const rows = await db
    .selectFrom('config_items')
    .selectAll()
    .where('domain', '=', domain)
    .orderBy('priority', 'desc')
    .orderBy('name_key')
    .execute();
  return rows.map(toItem);
}

export async function findItem(
  db: Executor,
  domain: ConfigDomain,
  id: number,
): Promise<ConfigItem | undefined> {
  const row = await db
    .selectFrom('config_items')
    .selectAll()
    .where('domain', '=', domain)
    .where('id', '=', id)
    .executeTakeFirst();
  return row && toItem(row);
}

export async function findItemByName(
  db: Executor,
  domain: ConfigDomain,
  name: string,
): Promise<ConfigItem | undefined> {
  const row = await db
    .selectFrom('config_items')
    .selectAll()
    .where('domain', '=', domain)
    .where('name_key', '=', name.toLowerCase())
    .executeTakeFirst();
  return row && toItem(row);
}

/** A new item at version 1; returns its id. */
export async function insertItem(
  db: Executor,
  domain: ConfigDomain,
  snapshot: ConfigSnapshot,
  stamp: Stamp,
): Promise<number> {
  const row = await db
    .insertInto('config_items')
    .values({
      domain,
      ...columnsOf(snapshot),
      version: 1,
      created_at: stamp.at,
      updated_at: stamp.at,
      updated_by: stamp.by,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Writes the next version only when the row is still at `expectedVersion`; false means someone else changed it first. */
export async function updateItem(
  db: Executor,
  id: number,
  expectedVersion: number,
  snapshot: ConfigSnapshot,
  stamp: Stamp,
): Promise<boolean> {
  const result = await db
    .updateTable('config_items')
    .set({ ...columnsOf(snapshot), version: expectedVersion + 1, updated_at: stamp.at, updated_by: stamp.by })
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
  itemId: number,
  revision: Omit<ConfigRevision, 'created_at' | 'updated_by'>,
  stamp: Stamp,
) {
  await db
    .insertInto('config_item_revisions')
    .values({
      item_id: itemId,
      revision: revision.revision,
      action: revision.action,
      changes: JSON.stringify(revision.changes),
      restored_from: revision.restored_from,
      snapshot: JSON.stringify(revision.snapshot),
      created_at: stamp.at,
      updated_by: stamp.by,
    })
    .execute();
}

function toRevision(row: {
  revision: number;
  created_at: string;
  updated_by: string | null;
  action: string;
  changes: string;
  restored_from: number | null;
  snapshot: string;
}): ConfigRevision {
  return {
    revision: row.revision,
    created_at: row.created_at,
    updated_by: row.updated_by,
    action: row.action as ConfigRevision['action'],
    changes: JSON.parse(row.changes) as string[],
    restored_from: row.restored_from,
    snapshot: JSON.parse(row.snapshot) as ConfigSnapshot,
  };
}

export async function listRevisions(db: Executor, itemId: number): Promise<ConfigRevision[]> {
  const rows = await db
    .selectFrom('config_item_revisions')
    .selectAll()
    .where('item_id', '=', itemId)
    .orderBy('revision', 'desc')
    .execute();
  return rows.map(toRevision);
}

export async function findRevision(db: Executor, itemId: number, revision: number) {
  const row = await db
    .selectFrom('config_item_revisions')
    .selectAll()
    .where('item_id', '=', itemId)
    .where('revision', '=', revision)
    .executeTakeFirst();
  return row && toRevision(row);
}

/** Every active item of every domain, for the bot. */
export async function listActiveItems(db: Executor): Promise<ConfigItem[]> {
  const rows = await db
    .selectFrom('config_items')
    .selectAll()
    .where('is_active', '=', 1)
    .orderBy('domain')
    .orderBy('priority', 'desc')
    .orderBy('name_key')
    .execute();
  return rows.map(toItem);
}
