import type { Insertable, Updateable } from 'kysely';
import type { Database, Executor, VersionedColumns, VersionHistoryColumns } from './database.js';
import type { Stamp, VersionedStore, VersionEntry } from './versioned-entity.js';

/**
 * The SQL the repositories of versioned entities share (versioned-entity.ts). An entity's table has its id,
 * the version it is at and who wrote it when; its history table keeps a row for each version, with the
 * changes and the snapshot as JSON text. Each repository adds its own columns and their encoding.
 */

/** The tables of versioned entities, found by their columns. */
export type VersionedTable = {
  [T in keyof Database]: Database[T] extends VersionedColumns ? T : never;
}[keyof Database];

/** The columns a new row starts with, besides its own: version 1, written by `stamp`. */
export function firstVersionColumns(stamp: Stamp) {
  return { version: 1, created_at: stamp.at, updated_at: stamp.at, updated_by: stamp.by };
}

/** Who wrote a row last, and when it was created and written, as the entity's answer carries them. */
export function writeStamps(row: Pick<VersionedColumns, 'created_at' | 'updated_at' | 'updated_by'>) {
  return { created_at: row.created_at, updated_at: row.updated_at, updated_by: row.updated_by };
}

/**
 * An entity's store from its repository's own parts: how a snapshot is stored in `table`'s columns, and
 * its reads and inserts. The writes that check the version are the same for every entity; a store that
 * keeps deleted rows (soft delete) brings its own `remove`.
 */
export function versionedStore<T extends VersionedTable, E, S>(
  table: T,
  parts: Omit<VersionedStore<E, S>, 'update' | 'remove'> & {
    columnsOf(snapshot: S): Updateable<Database[T]>;
    remove?: VersionedStore<E, S>['remove'];
  },
): VersionedStore<E, S> {
  const { columnsOf, remove, ...store } = parts;
  return {
    ...store,
    update: (db, id, expected, snapshot, stamp) =>
      updateAtVersion(db, table, id, expected, columnsOf(snapshot), stamp),
    remove: remove ?? ((db, id, expected) => deleteAtVersion(db, table, id, expected)),
  };
}

/**
 * Writes version `expected + 1` only while the row is at `expected`. The UPDATE checks it itself, so a
 * write that committed in between, on any instance, leaves it matching nothing: false.
 */
async function updateAtVersion<T extends VersionedTable>(
  db: Executor,
  table: T,
  id: number,
  expected: number,
  columns: Updateable<Database[T]>,
  stamp: Stamp,
): Promise<boolean> {
  const name: VersionedTable = table;
  const result = await db
    .updateTable(name)
    .set({ ...columns, version: expected + 1, updated_at: stamp.at, updated_by: stamp.by })
    .where('id', '=', id)
    .where('version', '=', expected)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Deletes the row only while it is at `expected`; false otherwise. */
async function deleteAtVersion(
  db: Executor,
  table: VersionedTable,
  id: number,
  expected: number,
): Promise<boolean> {
  const result = await db
    .deleteFrom(table)
    .where('id', '=', id)
    .where('version', '=', expected)
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

type HistoryColumns = Omit<VersionHistoryColumns, 'id'>;

/** A history row's columns, but for its entity's id and its number. */
function historyColumns<S>(entry: VersionEntry<S>, stamp: Stamp): HistoryColumns {
  return {
    action: entry.action,
    changes: JSON.stringify(entry.changes),
    restored_from: entry.restored_from,
    snapshot: JSON.stringify(entry.snapshot),
    created_at: stamp.at,
    updated_by: stamp.by,
  };
}

/** The history tables of versioned entities, found by their columns. */
type HistoryTable = {
  [T in keyof Database]: Database[T] extends VersionHistoryColumns ? T : never;
}[keyof Database];

/**
 * A store's insertVersion: each version becomes a row of `table` (table-shapes.ts, createHistoryTable)
 * with the entity's id in `owner` and the version's number in `numbered`.
 */
export function historyRows<S>(
  table: HistoryTable,
  owner: string,
  numbered: 'version' | 'revision',
): VersionedStore<unknown, S>['insertVersion'] {
  return async (db, id, entry, stamp) => {
    const row = { [owner]: id, [numbered]: entry.version, ...historyColumns(entry, stamp) };
    await db
      .insertInto(table)
      .values(row as Insertable<Database[HistoryTable]>)
      .execute();
  };
}

/** A history row read back, but for its number. */
export function fromHistoryRow<S>(row: HistoryColumns) {
  return {
    created_at: row.created_at,
    updated_by: row.updated_by,
    action: row.action as VersionEntry<S>['action'],
    changes: JSON.parse(row.changes) as string[],
    restored_from: row.restored_from,
    snapshot: JSON.parse(row.snapshot) as S,
  };
}
