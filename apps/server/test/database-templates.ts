import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import pg from 'pg';
import { openDatabase } from '../src/db/connection.js';
import { migrateToLatest } from '../src/db/migrate.js';

/**
 * Migrated databases that the API tests copy instead of migrating again (engineering guide, "Fast,
 * deterministic tests"). test/global-setup.ts builds them once per run and removes them after it:
 * - SQLite: a file migrated as the server migrates its own; each test opens a copy of its bytes in memory
 *   (better-sqlite3's `new Database(buffer)`) or writes a copy to its scratch directory.
 * - PostgreSQL: a migrated database next to TEST_DATABASE_URL's, from which each test's database is created
 *   (CREATE DATABASE … TEMPLATE …, https://www.postgresql.org/docs/15/manage-ag-templatedbs.html).
 * Both are named by `migrationsKey()`, a hash of the migration code: in watch mode they are built again
 * once a migration changes, so a test never copies what the current migrations would not produce.
 */

export interface DatabaseTemplates {
  /** Names this run's databases (lumi_test_<runId>_…), so its teardown finds any a test left behind. */
  runId: string;
  /** migrationsKey() of the code the templates were migrated with. */
  key: string;
  /** A migrated SQLite database file (rollback journal, so its bytes alone are the whole database). */
  sqliteFile: string;
  /** A migrated PostgreSQL database's name, when TEST_DATABASE_URL is set. */
  postgres?: string;
}

const srcDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src');

/**
 * A hash of src/db/migrate.ts and every module it imports by a relative path, transitively (the
 * migrations and what they use: table helpers, seed data), so any change to what a migration runs
 * changes the key.
 */
export function migrationsKey(): string {
  const hash = createHash('sha256');
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    hash.update(`${path.relative(srcDir, file)}\0${text}\0`);
    for (const [, specifier] of text.matchAll(/from '(\.{1,2}\/[^']+)'/g)) {
      const target = path.resolve(path.dirname(file), specifier!).replace(/\.js$/, '.ts');
      if (existsSync(target)) visit(target);
    }
  };
  visit(path.join(srcDir, 'db/migrate.ts'));
  return hash.digest('hex').slice(0, 12);
}

/** Migrates a new SQLite database at `file` (which must not exist) and leaves it in one file. */
export async function buildSqliteTemplate(file: string): Promise<void> {
  const handle = openDatabase({ sqliteFile: file });
  try {
    await migrateToLatest(handle);
    // Back from WAL to a rollback journal: the WAL is checkpointed into the file and the header no
    // longer asks for one, so a copy of the file's bytes opens anywhere, in memory too.
    await sql`pragma journal_mode = delete`.execute(handle.db);
  } finally {
    await handle.db.destroy();
  }
}

/** `baseUrl` (TEST_DATABASE_URL) with another database name. */
export function postgresUrl(baseUrl: string, database: string): string {
  const url = new URL(baseUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

export async function withAdminClient<T>(
  baseUrl: string,
  run: (client: pg.Client) => Promise<T>,
): Promise<T> {
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** Creates the database `name` and migrates it; no connection stays open on it afterwards. */
export async function buildPostgresTemplate(baseUrl: string, name: string): Promise<void> {
  await withAdminClient(baseUrl, (client) => client.query(`CREATE DATABASE "${name}"`));
  const handle = openDatabase({ databaseUrl: postgresUrl(baseUrl, name), poolSize: 1 });
  try {
    await migrateToLatest(handle);
  } catch (error) {
    await handle.db.destroy();
    await dropPostgresDatabase(baseUrl, name);
    throw error;
  }
  // A template is copied only while no one is connected to it.
  await handle.db.destroy();
}

/**
 * A closed pool's connections finish closing after db.destroy() resolves. Forcing the drop while one is
 * still open makes PostgreSQL terminate it, which the pool then raises as an uncaught error (more often on
 * a busy machine), so wait briefly for the database's connections to go first.
 */
export async function dropPostgresDatabase(baseUrl: string, name: string): Promise<void> {
  await withAdminClient(baseUrl, async (client) => {
    // A test's database need not outlive a crash: its drop need not wait for the WAL to reach the disk.
    await client.query('SET synchronous_commit = off');
    for (let attempt = 0; attempt < 100; attempt += 1) {
      const { rows } = await client.query<{ n: string }>(
        'SELECT count(*) AS n FROM pg_stat_activity WHERE datname = $1',
        [name],
      );
      if (Number(rows[0]?.n ?? 0) === 0) break;
      await sleep(20);
    }
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  });
}

/** Drops every database whose name starts with `prefix` (the ones a run's failed tests left behind). */
export async function dropPostgresDatabasesNamed(baseUrl: string, prefix: string): Promise<void> {
  const { rows } = await withAdminClient(baseUrl, (client) =>
    client.query<{ datname: string }>('SELECT datname FROM pg_database WHERE starts_with(datname, $1)', [
      prefix,
    ]),
  );
  for (const { datname } of rows) await dropPostgresDatabase(baseUrl, datname);
}
