import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDatabase, readNow, withStatementCache } from './connection.js';
import type { Database } from './database.js';

describe('withStatementCache', () => {
  it('prepares a statement once and reuses it for the same SQL', () => {
    const sqlite = new SQLite(':memory:');
    const database = withStatementCache(sqlite);
    const first = database.prepare('select 1 as one');
    expect(database.prepare('select 1 as one')).toBe(first);
    expect(database.prepare('select 2 as two')).not.toBe(first);
    database.close();
    expect(sqlite.open).toBe(false);
  });

  it('drops the least recently used statement when full', () => {
    const database = withStatementCache(new SQLite(':memory:'), 2);
    const a = database.prepare('select 1');
    const b = database.prepare('select 2');
    expect(database.prepare('select 1')).toBe(a); // 'select 2' is now the least recently used
    database.prepare('select 3');
    expect(database.prepare('select 1')).toBe(a);
    expect(database.prepare('select 2')).not.toBe(b);
    database.close();
  });

  it('keeps reused statements correct across writes, parameters and schema changes', async () => {
    const { db } = openDatabase({});
    await sql`create table t (id integer primary key, name text)`.execute(db);
    for (const name of ['a', 'b', 'c']) await sql`insert into t (name) values (${name})`.execute(db);
    const byName = async (name: string) =>
      (await sql<{ id: number }>`select id from t where name = ${name}`.execute(db)).rows;
    const all = async () => (await sql`select * from t order by id`.execute(db)).rows;
    expect(await byName('b')).toEqual([{ id: 2 }]);
    expect(await byName('c')).toEqual([{ id: 3 }]);
    expect(await all()).toHaveLength(3);
    await sql`alter table t add column extra text`.execute(db);
    await sql`update t set extra = 'x'`.execute(db);
    expect((await all())[0]).toEqual({ id: 1, name: 'a', extra: 'x' });
    expect(await byName('a')).toEqual([{ id: 1 }]);
    await db.destroy();
  });
});

/**
 * The server's connection to a scratch SQLite file holding a table `t`, beside a second connection to the
 * same file (as the ingest worker's) that never waits for a lock: it runs on this same thread here.
 */
async function withTwoConnections(run: (db: Kysely<Database>, other: SQLite.Database) => Promise<void>) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lumi-connection-'));
  const file = path.join(dir, 'lumi.db');
  const { db } = openDatabase({ sqliteFile: file });
  await sql`create table t (id integer primary key, name text)`.execute(db);
  const other = new SQLite(file);
  other.pragma('busy_timeout = 0');
  try {
    await run(db, other);
  } finally {
    other.close();
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
}

const names = async (db: Kysely<Database>) =>
  (await sql<{ name: string }>`select name from t order by id`.execute(db)).rows.map((row) => row.name);

describe('SQLite transactions beside a second connection (the ingest worker)', () => {
  it('take the write lock when they begin, so a transaction that read first never finds its snapshot stale', () =>
    withTwoConnections(async (db, other) => {
      await db.transaction().execute(async (trx) => {
        await sql`select count(*) from t`.execute(trx);
        // A deferred transaction would hold no lock yet: the other would commit, and the insert below
        // would then fail with SQLITE_BUSY because this transaction's snapshot is older than that commit.
        expect(() => other.prepare("insert into t (name) values ('other')").run()).toThrow(/locked|busy/i);
        await sql`insert into t (name) values ('mine')`.execute(trx);
      });
      other.prepare("insert into t (name) values ('other')").run();
      expect(await names(db)).toEqual(['mine', 'other']);
    }));

  it("wait for the other's write lock without holding the thread, then write", () =>
    // The other writer holds the write lock on this same thread: a connection that waited inside the
    // call (busy_timeout) would keep it from ever letting go, and fail after its timeout.
    withTwoConnections(async (db, other) => {
      other.prepare('begin immediate').run();
      other.prepare("insert into t (name) values ('other')").run();
      let settled = false;
      const write = sql`insert into t (name) values ('mine')`.execute(db).finally(() => (settled = true));
      const inTransaction = db.transaction().execute(async (trx) => {
        await sql`insert into t (name) values ('in a transaction')`.execute(trx);
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(settled).toBe(false);
      other.prepare('commit').run();
      await write;
      await inTransaction;
      expect(await names(db)).toEqual(['other', 'mine', 'in a transaction']);
    }));
});

describe('readNow', () => {
  it('reads at once outside a transaction, and leaves writes, transactions and PostgreSQL to Kysely', async () => {
    const { db } = openDatabase({});
    await sql`create table t (id integer primary key, name text)`.execute(db);
    await sql`insert into t (name) values ('a')`.execute(db);
    expect(readNow(db, 'select name from t where id = ?', [1])).toEqual([{ name: 'a' }]);
    expect(readNow(db, "insert into t (name) values ('b') returning id", [])).toBeUndefined();
    await db.transaction().execute(async (trx) => {
      await sql`insert into t (name) values ('uncommitted')`.execute(trx);
      // The transaction's own write is not to be read outside it.
      expect(readNow(db, 'select count(*) as n from t', [])).toBeUndefined();
    });
    expect(readNow(db, 'select count(*) as n from t', [])).toEqual([{ n: 2 }]);
    await db.destroy();
    const postgres = openDatabase({ databaseUrl: 'postgres://nobody@127.0.0.1:1/none' });
    expect(readNow(postgres.db, 'select 1', [])).toBeUndefined();
    await postgres.db.destroy();
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('statements on PostgreSQL', () => {
  it('names a data statement run again with other values, and keeps its answers right', async () => {
    // One connection, so the session whose prepared statements are listed is the one that ran them.
    const { db } = openDatabase({ databaseUrl: process.env.TEST_DATABASE_URL, poolSize: 1 });
    try {
      await sql`create temporary table named_t (id int primary key, name text)`.execute(db);
      const names = ['a', 'b', 'c', 'd', 'e'];
      for (const [i, name] of names.entries())
        await sql`insert into named_t (id, name) values (${i + 1}, ${name})`.execute(db);
      const byId = async (id: number, on: Kysely<Database> = db) =>
        (await sql<{ name: string }>`select name from named_t where id = ${id}`.execute(on)).rows;
      for (const [i, name] of names.entries()) expect(await byId(i + 1)).toEqual([{ name }]);
      await db.transaction().execute(async (trx) => {
        await sql`update named_t set name = ${'z'} where id = ${5}`.execute(trx);
        expect(await byId(5, trx)).toEqual([{ name: 'z' }]);
      });
      expect(await byId(6)).toEqual([]);

      const prepared = (
        await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(db)
      ).rows.map((row) => row.statement);
      expect(prepared).toContain('select name from named_t where id = $1');
      expect(prepared).toContain('insert into named_t (id, name) values ($1, $2)');
      // Run once, or without values: sent unnamed, as before.
      expect(prepared.some((text) => text.startsWith('update') || text.startsWith('create'))).toBe(false);
    } finally {
      await db.destroy();
    }
  });
});
