import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  Kysely,
  PostgresDialect,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type Driver,
  type SqliteDatabase,
  type SqliteDialectConfig,
} from 'kysely';
import pg from 'pg';
import type { Database } from './database.js';

export type DialectName = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: DialectName;
  /** The SQLite database's file; absent for PostgreSQL and an in-memory database. */
  file?: string;
}

/** PostgreSQL when a postgres:// URL is given, otherwise the embedded SQLite file (WAL mode). */
export function openDatabase(options: {
  databaseUrl?: string;
  sqliteFile?: string;
  /** PostgreSQL connections at most (10 by default). */
  poolSize?: number;
}): DatabaseHandle {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 10 });
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
    db: new Kysely<Database>({
      dialect: new ImmediateSqliteDialect({ database: withStatementCache(sqlite) }),
    }),
    dialect: 'sqlite',
    ...(file === ':memory:' ? {} : { file }),
  };
}

/**
 * Kysely begins SQLite transactions DEFERRED: the write lock is taken at the first write. With a second
 * connection writing to the same file (the ingest worker, modules/telemetry/ingest-writer.ts), a deferred
 * transaction that has read and then writes fails at once with SQLITE_BUSY when the other committed in
 * between, since its snapshot is stale; busy_timeout does not help there. IMMEDIATE takes the write lock at
 * BEGIN, waiting up to busy_timeout for the other writer, so writers queue instead of failing. Reads outside
 * transactions are unaffected (WAL readers never wait).
 */
class ImmediateSqliteDialect extends SqliteDialect {
  constructor(private readonly settings: SqliteDialectConfig) {
    super(settings);
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.settings);
  }
}

class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
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
