import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, type SqliteDatabase } from 'kysely';
import pg from 'pg';
import type { Database } from './database.js';

export type DialectName = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: DialectName;
}

/** PostgreSQL when a postgres:// URL is given, otherwise the embedded SQLite file (WAL mode). */
export function openDatabase(options: { databaseUrl?: string; sqliteFile?: string }): DatabaseHandle {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    return { db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }), dialect: 'postgres' };
  }
  const file = options.sqliteFile ?? ':memory:';
  if (file !== ':memory:') mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  return {
    db: new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) }),
    dialect: 'sqlite',
  };
}

/** How many distinct prepared statements a SQLite connection keeps; the app issues a few hundred shapes. */
const STATEMENT_CACHE_SIZE = 1000;

/**
 * Kysely prepares every query anew, and on a busy dashboard preparing costs more than running the query.
 * Kysely's SQL for a query shape is stable (values are parameters), so statements are kept by their SQL and
 * reused; the least recently used one is dropped when the cache is full. Safe because the app never streams
 * (a statement in the middle of `iterate()` could not run again) and SQLite re-prepares a cached statement
 * by itself when the schema changes.
 */
export function withStatementCache(sqlite: SQLite.Database, size = STATEMENT_CACHE_SIZE): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => {
      statements.clear();
      sqlite.close();
    },
    prepare: (sql: string) => {
      let statement = statements.get(sql);
      if (statement) {
        statements.delete(sql);
      } else {
        statement = sqlite.prepare(sql);
        if (statements.size >= size) statements.delete(statements.keys().next().value as string);
      }
      statements.set(sql, statement);
      return statement;
    },
  };
}
