import type { ConfigDomain, ConfigItem, ConfigRevision, ConfigSnapshot } from '@lumi/contract';
import type { ConfigItemRow, ConfigRevisionRow, Executor } from '../../db/database.js';
import type { Stamp } from '../../db/versioned-entity.js';
import {
  firstVersionColumns,
  fromHistoryRow,
  historyRows,
  versionedStore,
  writeStamps,
} from '../../db/versioned-tables.js';

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
    ...writeStamps(row),
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

async function findItem(db: Executor, domain: ConfigDomain, id: number): Promise<ConfigItem | undefined> {
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
async function insertItem(
  db: Executor,
  domain: ConfigDomain,
  snapshot: ConfigSnapshot,
  stamp: Stamp,
): Promise<number> {
  const row = await db
    .insertInto('config_items')
    .values({ domain, ...columnsOf(snapshot), ...firstVersionColumns(stamp) })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

function toRevision(row: ConfigRevisionRow): ConfigRevision {
  return { revision: row.revision, ...fromHistoryRow<ConfigSnapshot>(row) };
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

/** The items of one domain as a versioned entity (db/versioned-entity.ts). */
export function itemStore(domain: ConfigDomain) {
  return versionedStore('config_items', {
    columnsOf,
    find: (db, id) => findItem(db, domain, id),
    insert: (db, snapshot, stamp) => insertItem(db, domain, snapshot, stamp),
    insertVersion: historyRows('config_item_revisions', 'item_id', 'revision'),
  });
}

/** The names of those of `ids` that still exist. */
export async function itemNamesById(db: Executor, ids: number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('config_items').select(['id', 'name']).where('id', 'in', ids).execute();
  return new Map(rows.map((row) => [row.id, row.name]));
}
