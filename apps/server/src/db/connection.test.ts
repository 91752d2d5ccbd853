import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDatabase, withStatementCache } from './connection.js';

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
