/**
 * What the benchmark's generators (load-llm-calls.ts, load-retention-days.ts) share: opening the scratch
 * database named by BENCH_SQLITE_FILE or BENCH_DATABASE_URL, migrated, and PostgreSQL's day partitions.
 */
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { openDatabase, type DatabaseHandle } from '../../apps/server/src/db/connection.js';
import type { Database } from '../../apps/server/src/db/database.js';
import { ensureDayPartition, EVENT_TABLES, utcDay } from '../../apps/server/src/db/event-partitions.js';
import { migrateToLatest } from '../../apps/server/src/db/migrate.js';

export const DAY_MS = 24 * 3600 * 1000;

export interface Scratch {
  handle: DatabaseHandle;
  /** The SQLite connection under handle.db, for prepared statements; null on PostgreSQL. */
  sqlite: SQLite.Database | null;
}

/** Opens and migrates the scratch database the environment names. */
export async function openScratch(): Promise<Scratch> {
  const sqliteFile = process.env.BENCH_SQLITE_FILE;
  const databaseUrl = process.env.BENCH_DATABASE_URL;
  if (!sqliteFile && !databaseUrl) throw new Error('Set BENCH_SQLITE_FILE or BENCH_DATABASE_URL');
  let scratch: Scratch;
  if (sqliteFile) {
    // The server's pragmas (db/connection.ts), plus bulk-load settings for this one connection.
    const sqlite = new SQLite(sqliteFile);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('synchronous = OFF');
    sqlite.pragma('cache_size = -262144');
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
    scratch = { handle: { db, dialect: 'sqlite' }, sqlite };
  } else {
    scratch = { handle: openDatabase({ databaseUrl }), sqlite: null };
  }
  await migrateToLatest(scratch.handle);
  return scratch;
}

/**
 * PostgreSQL: the day partitions of every event table for each UTC day from `fromMs` to `toMs` (both
 * included), one day per transaction as the housekeeping job creates them on a running server. Without
 * them the loaded rows would all land in the default partitions.
 */
export async function createDayPartitions(handle: DatabaseHandle, fromMs: number, toMs: number) {
  if (handle.dialect !== 'postgres') return;
  for (let day = utcDay(fromMs); day <= utcDay(toMs); day = utcDay(Date.parse(day) + DAY_MS)) {
    await handle.db.transaction().execute(async (trx) => {
      for (const table of EVENT_TABLES) await ensureDayPartition(trx, table, day);
    });
  }
}
