import type { Insertable } from 'kysely';
import type { Database, Executor } from '../../db/database.js';
import { EVENT_TABLES } from '../../db/event-partitions.js';

/** The append-only raw event tables, one per event type. */
export const RAW_TABLES = EVENT_TABLES;
export type RawTable = (typeof RAW_TABLES)[number];
export type RawRow<T extends RawTable> = Omit<Insertable<Database[T]>, 'id'>;

/** Rows per INSERT: far below SQLite's 32,766 and PostgreSQL's 65,535 bound parameters. */
const INSERT_CHUNK = 500;
/** Rows per DELETE while pruning, so a large backlog never holds a long lock. */
const PRUNE_CHUNK = 5000;

/**
 * Inserts events, skipping those whose client id and time are stored already (the unique index decides, so
 * a concurrent retry cannot slip through), and returns how many were stored and the client ids among them.
 */
export async function insertEvents<T extends RawTable>(
  db: Executor,
  table: T,
  rows: RawRow<T>[],
): Promise<{ stored: number; storedIds: Set<string> }> {
  const storedIds = new Set<string>();
  let stored = 0;
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    const inserted = await db
      .insertInto(table as RawTable)
      .values(rows.slice(i, i + INSERT_CHUNK) as never)
      .onConflict((oc) => oc.columns(['client_id', 'ts']).doNothing())
      .returning('client_id')
      .execute();
    stored += inserted.length;
    for (const row of inserted) if (row.client_id !== null) storedIds.add(row.client_id);
  }
  return { stored, storedIds };
}

/** The newest row of a table by event time: an index look-up on ts, never a scan. */
export function latestHeartbeat(db: Executor) {
  return db
    .selectFrom('heartbeats')
    .selectAll()
    .orderBy('ts', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export function latestMarketData(db: Executor) {
  return db
    .selectFrom('market_data_reports')
    .selectAll()
    .orderBy('ts', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export function latestCacheReport(db: Executor, from: string) {
  return db
    .selectFrom('cache_reports')
    .select(['ts', 'entries'])
    .where('ts', '>=', from)
    .orderBy('ts', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/**
 * Deletes events older than `before`, a chunk at a time; returns how many went. On PostgreSQL it is given
 * the default partitions (db/event-partitions.ts), the day partitions being dropped whole.
 */
export async function pruneEvents(
  db: Executor,
  before: string,
  tables: readonly string[] = RAW_TABLES,
): Promise<number> {
  let removed = 0;
  for (const table of tables) {
    for (;;) {
      const result = await db
        .deleteFrom(table as RawTable)
        .where('id', 'in', (eb) =>
          eb
            .selectFrom(table as RawTable)
            .select('id')
            .where('ts', '<', before)
            .limit(PRUNE_CHUNK),
        )
        .executeTakeFirst();
      const count = Number(result.numDeletedRows);
      removed += count;
      if (count < PRUNE_CHUNK) break;
    }
  }
  return removed;
}
