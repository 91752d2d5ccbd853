import { sql, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDatabase } from './connection.js';
import type { Database } from './database.js';
import { ReusableQuery } from './reusable-query.js';

/** A scratch table outside the schema, reached through the untyped builder. */
async function scratch() {
  const { db } = openDatabase({});
  await sql`create table t (kind text, name text, n integer)`.execute(db);
  for (const [kind, name, n] of [
    ['a', 'x', 1],
    ['a', 'y', 2],
    ['b', 'x', 3],
  ] as const) {
    await sql`insert into t values (${kind}, ${name}, ${n})`.execute(db);
  }
  return db as unknown as Kysely<Database> & Kysely<{ t: { kind: string; name: string; n: number } }>;
}

describe('ReusableQuery', () => {
  it('runs the query it compiled once with each call’s values, constants kept', async () => {
    const db = await scratch();
    const byKind = new ReusableQuery(2, (any, kind: string, above: number) =>
      (any as unknown as typeof db)
        .selectFrom('t')
        .select(['name', 'n'])
        .where('kind', '=', kind)
        .where('n', '>', above)
        .where('name', '!=', 'z')
        .orderBy('n'),
    );
    expect(await byKind.execute(db, ['a', 0])).toEqual([
      { name: 'x', n: 1 },
      { name: 'y', n: 2 },
    ]);
    expect(await byKind.execute(db, ['a', 1])).toEqual([{ name: 'y', n: 2 }]);
    expect(await byKind.execute(db, ['b', 0])).toEqual([{ name: 'x', n: 3 }]);
    await db.transaction().execute(async (trx) => {
      await sql`insert into t values ('b', 'w', 9)`.execute(trx);
      expect(await byKind.execute(db, ['b', 5], trx)).toEqual([{ name: 'w', n: 9 }]);
    });
    await db.destroy();
  });

  it('refuses a builder that does not pass every argument as a value', async () => {
    const db = await scratch();
    const shaped = new ReusableQuery(2, (any, kind: string, _unused: string) =>
      (any as unknown as typeof db).selectFrom('t').select('n').where('kind', '=', kind),
    );
    await expect(shaped.execute(db, ['a', 'b'])).rejects.toThrow(/each of its 2 arguments/);
    await db.destroy();
  });
});
