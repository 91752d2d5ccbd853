import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  Kysely,
  PostgresDialect,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type Driver,
  type PostgresPool,
  type PostgresPoolClient,
  type QueryResult,
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
  /**
   * How a SQLite connection waits for another connection's write lock (the ingest worker's): `event-loop`
   * (the default) retries while the thread goes on with other work; `block` lets SQLite wait in the call,
   * which only a thread with nothing else to do (the ingest worker) may.
   */
  lockWait?: 'event-loop' | 'block';
  /**
   * An in-memory SQLite database that starts as a copy of this database file's bytes (better-sqlite3's
   * `new Database(buffer)`): tests copy a migrated template instead of migrating again.
   */
  sqliteImage?: Buffer;
}): DatabaseHandle {
  if (options.databaseUrl) {
    const { databaseUrl } = options;
    const pool = new pg.Pool({ connectionString: databaseUrl, max: options.poolSize ?? 10 });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: preparing(pool) }) });
    sessions.set(db, (settings) => new pg.Client({ ...settings, connectionString: databaseUrl }));
    return { db, dialect: 'postgres' };
  }
  const file = options.sqliteImage ? ':memory:' : (options.sqliteFile ?? ':memory:');
  if (file !== ':memory:') mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(options.sqliteImage ?? file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  const blocking = options.lockWait === 'block';
  sqlite.pragma(`busy_timeout = ${blocking ? LOCK_WAIT_MS : 0}`);
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma(`wal_autocheckpoint = ${WAL_FALLBACK_PAGES}`);
  sqlite.pragma(`journal_size_limit = ${WAL_KEPT_BYTES}`);
  const statements = withStatementCache(sqlite);
  const db = new Kysely<Database>({
    dialect: new ImmediateSqliteDialect({ database: statements }, blocking),
  });
  readers.set(db, (query, parameters, each) => {
    if (sqlite.inTransaction) return undefined;
    const statement = statements.prepare(query) as SQLite.Statement;
    if (!statement.readonly) return undefined;
    try {
      if (!each) return statement.all(parameters);
      statement.raw(true);
      try {
        for (const row of statement.iterate(parameters) as Iterable<unknown[]>) each(row);
      } finally {
        statement.raw(false);
      }
      return [];
    } catch (error) {
      if (isBusy(error)) return undefined;
      throw error;
    }
  });
  return { db, dialect: 'sqlite', ...(file === ':memory:' ? {} : { file }) };
}

/** A statement's text seen this many times with parameters is prepared once per connection from then on. */
const PREPARE_AFTER = 3;
/** Texts counted at most: beyond them a new text is sent unnamed, as before. */
const PREPARED_TEXTS = 500;
const PREPARABLE = /^\s*(select|insert|update|delete|with)\b/i;

/**
 * The pool Kysely takes, sending a statement it has seen before by name: PostgreSQL then parses it once per
 * connection instead of at every run ("Extended Query", postgresql.org/docs/current/protocol-flow.html;
 * node-postgres's `name`, node-postgres.com/features/queries). The allowance's group statements run
 * thousands of times a second with the same text (docs/benchmarks.md, "Allowance"). Only data statements
 * with parameters are named; a text is named after PREPARE_AFTER runs, so one-off statements never are.
 */
function preparing(pool: pg.Pool): PostgresPool {
  const seen = new Map<string, number>();
  const names = new Map<string, string>();
  const nameOf = (text: string): string | undefined => {
    const named = names.get(text);
    if (named !== undefined || seen.size >= PREPARED_TEXTS || !PREPARABLE.test(text)) return named;
    const runs = (seen.get(text) ?? 0) + 1;
    seen.set(text, runs);
    if (runs < PREPARE_AFTER) return undefined;
    const name = `lumi_${names.size + 1}`;
    names.set(text, name);
    return name;
  };
  return {
    connect: async (): Promise<PostgresPoolClient> => {
      const client = await pool.connect();
      const query = (text: string, values?: readonly unknown[]) => {
        // A cursor (a streamed query) or a statement without parameters goes as it is.
        if (typeof text !== 'string' || !values?.length) return client.query(text, values as unknown[]);
        const name = nameOf(text);
        return client.query(name === undefined ? text : { name, text }, [...values]);
      };
      return { query: query as unknown as PostgresPoolClient['query'], release: () => client.release() };
    },
    end: () => pool.end(),
  };
}

type SessionClients = (settings?: Omit<pg.ClientConfig, 'connectionString'>) => pg.Client;
const sessions = new WeakMap<Kysely<Database>, SessionClients>();

/**
 * PostgreSQL: makes new clients of their own (not connected yet) to the database `db` reaches, outside its
 * pool, for a session that lives as long as the process holds something in it
 * (modules/cluster/sole-instance.ts); undefined on SQLite, and for a Kysely not opened here.
 */
export function sessionClients(db: Kysely<Database>): SessionClients | undefined {
  return sessions.get(db);
}

const readers = new WeakMap<
  Kysely<Database>,
  (query: string, parameters: readonly unknown[], each?: (row: unknown[]) => void) => unknown[] | undefined
>();

/**
 * Runs a read-only statement on a SQLite database's connection at once, for a path that runs thousands of
 * times a second (the allowance, docs/operators/limits.md): Kysely's way to the same statement (its
 * connection lock and a chain of promises) allocates more than the statement itself, and its garbage is
 * what stops the event loop. Undefined when it cannot: PostgreSQL, a statement that writes, a transaction
 * open on the connection (its writes are not to be read outside it; through Kysely the read waits for its
 * end), or another connection's lock (SQLITE_BUSY; Kysely's way tries again).
 */
export function readNow<R>(db: Kysely<Database>, query: string, parameters: readonly unknown[]) {
  return readers.get(db)?.(query, parameters) as R[] | undefined;
}

/**
 * As `readNow`, for a statement of many rows: each is handed to `each` as an array of its columns as it is
 * read, none kept (the allowance's mirror loads a million, modules/limits/usage-mirror.ts); false when it
 * cannot run at once. `each` must not use the connection.
 */
export function readEachNow(
  db: Kysely<Database>,
  query: string,
  parameters: readonly unknown[],
  each: (row: unknown[]) => void,
): boolean {
  return readers.get(db)?.(query, parameters, each) !== undefined;
}

/**
 * The WAL is checkpointed by a thread of its own (wal-checkpointer.ts); a writer checkpoints in its commit
 * only once the WAL holds this many pages (64 MB of 4 KB pages), should that thread fall behind or not run.
 */
const WAL_FALLBACK_PAGES = 16_384;
/** After a checkpoint has emptied it, the WAL file is cut back to this size. */
const WAL_KEPT_BYTES = 64 * 1024 * 1024;

/** The longest a SQLite statement waits for another connection's write lock before it fails (SQLITE_BUSY). */
const LOCK_WAIT_MS = 5000;

/**
 * Kysely begins SQLite transactions DEFERRED: the write lock is taken at the first write. With a second
 * connection writing to the same file (the ingest worker, modules/ingestion/ingest-writer.ts), a deferred
 * transaction that has read and then writes fails at once with SQLITE_BUSY when the other committed in
 * between, since its snapshot is stale; busy_timeout does not help there. IMMEDIATE takes the write lock at
 * BEGIN, waiting for the other writer, so writers queue instead of failing. Reads outside transactions are
 * unaffected (WAL readers never wait).
 *
 * better-sqlite3 waits for a lock (busy_timeout) inside the call, holding its thread. The server's thread
 * must not wait so: its connection has no busy_timeout, and a statement refused with SQLITE_BUSY is tried
 * again after a pause (`PatientConnection`), so other requests are answered meanwhile.
 */
class ImmediateSqliteDialect extends SqliteDialect {
  constructor(
    private readonly settings: SqliteDialectConfig,
    private readonly blocking: boolean,
  ) {
    super(settings);
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.settings, this.blocking);
  }
}

class ImmediateSqliteDriver extends SqliteDriver {
  /** Kysely's SQLite driver has one connection for its life: it is wrapped once. */
  private patient?: PatientConnection;

  constructor(
    settings: SqliteDialectConfig,
    private readonly blocking: boolean,
  ) {
    super(settings);
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    const inner = await super.acquireConnection();
    if (this.blocking) return inner;
    this.patient ??= new PatientConnection(inner);
    return this.patient;
  }

  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

const isBusy = (error: unknown) => (error as { code?: unknown } | null)?.code === 'SQLITE_BUSY';
/**
 * Tries a statement that another connection's write lock refused again, after pauses of 1 ms growing to
 * 20 ms, for up to LOCK_WAIT_MS. A refused statement has changed nothing (SQLite undoes a statement it
 * cannot finish), so trying it again is safe, also inside a transaction.
 */
class PatientConnection implements DatabaseConnection {
  constructor(private readonly inner: DatabaseConnection) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    for (let waited = 0, wait = 1; ; waited += wait, wait = Math.min(wait * 2, 20)) {
      try {
        return await this.inner.executeQuery<R>(query);
      } catch (error) {
        if (!isBusy(error) || waited >= LOCK_WAIT_MS) throw error;
        await sleep(wait);
      }
    }
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(query, chunkSize);
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
