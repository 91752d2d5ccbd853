/**
 * What the benchmark's generators (load-llm-calls.ts, load-retention-days.ts, load-allowance-data.ts) share:
 * opening the scratch database named by BENCH_SQLITE_FILE or BENCH_DATABASE_URL, migrated, PostgreSQL's day
 * partitions, and the SQL that has the database generate rows itself.
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

/**
 * What differs between the databases in SQL that generates rows itself (INSERT … SELECT over a series): the
 * row numbers `i` from `from` to `to` (exclusive), `i` as 8-digit text, and ISO 8601 UTC text from ms.
 */
export const SERIES_SQL = {
  postgres: {
    series: (from: number, to: number) => `generate_series(${from}::bigint, ${to - 1}) AS n(i)`,
    padded: `lpad(i::text, 8, '0')`,
    iso: (ms: string) =>
      `to_char(timestamp 'epoch' + ${ms} * interval '1 millisecond', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
  },
  sqlite: {
    series: (from: number, to: number) =>
      `(WITH RECURSIVE s(i) AS (SELECT ${from} UNION ALL SELECT i + 1 FROM s WHERE i < ${to - 1}) SELECT i FROM s) AS n`,
    padded: `printf('%08d', i)`,
    iso: (ms: string) =>
      `strftime('%Y-%m-%dT%H:%M:%S', ${ms} / 1000, 'unixepoch') || printf('.%03dZ', ${ms} % 1000)`,
  },
};
