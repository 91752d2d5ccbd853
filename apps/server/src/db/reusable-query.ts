import { CompiledQuery, type Compilable, type Kysely } from 'kysely';
import type { Database, Executor } from './database.js';
import { readNow } from './connection.js';
import { isPostgres } from './locks.js';

/** Stands for the i-th argument while the query is compiled: a value no caller passes. */
const marker = (i: number) => `\u0000reusable-query-argument-${i}`;

interface Compiled {
  sql: string;
  /** For each parameter, the argument it takes (a number) or the constant the builder wrote. */
  slots: ({ argument: number } | { constant: unknown })[];
}

/**
 * A query built with Kysely once per database and run again with other values, for a path that runs
 * thousands of times a second (the allowance, docs/operators/limits.md): building and compiling a query
 * costs more than SQLite takes to run it. `build` must use each argument only as a value (a parameter of
 * the SQL), never to choose the query's shape.
 */
export class ReusableQuery<A extends readonly unknown[], Row> {
  private readonly compiled = new WeakMap<Kysely<Database>, Compiled>();

  constructor(
    private readonly arity: A['length'],
    private readonly build: (db: Kysely<Database>, ...args: A) => Compilable<Row>,
  ) {}

  /**
   * Runs the query with `args` on `on` (the database `db` or a transaction of it); a read outside a
   * transaction on SQLite at once (`readNow`).
   */
  async execute(db: Kysely<Database>, args: A, on: Executor = db): Promise<Row[]> {
    const rows = on === db ? this.executeNow(db, args) : undefined;
    if (rows) return rows;
    const { sql, slots } = this.compiledFor(db);
    const result = await on.executeQuery<Row>(CompiledQuery.raw(sql, this.parameters(slots, args)));
    return result.rows;
  }

  /** The rows of each of several runs, one after another, on `on` (`db` or a transaction of it). */
  async executeEach(db: Kysely<Database>, runs: A[], on: Executor = db): Promise<Row[][]> {
    const read: Row[][] = [];
    for (const args of runs) read.push(await this.execute(db, args, on));
    return read;
  }

  /** The rows of a read run at once on SQLite (`readNow`); undefined where it cannot run so. */
  executeNow(db: Kysely<Database>, args: A): Row[] | undefined {
    const { sql, slots } = this.compiledFor(db);
    return readNow<Row>(db, sql, this.parameters(slots, args));
  }

  /** The rows of each of several runs, all at once on SQLite (`readNow`); undefined where they cannot run so. */
  executeNowEach(db: Kysely<Database>, runs: A[]): Row[][] | undefined {
    const read: Row[][] = [];
    for (const args of runs) {
      const rows = this.executeNow(db, args);
      if (!rows) return undefined;
      read.push(rows);
    }
    return read;
  }

  private parameters(slots: Compiled['slots'], args: A): unknown[] {
    return slots.map((slot) => ('argument' in slot ? args[slot.argument] : slot.constant));
  }

  private compiledFor(db: Kysely<Database>): Compiled {
    const known = this.compiled.get(db);
    if (known) return known;
    const markers = Array.from({ length: this.arity }, (_, i) => marker(i)) as unknown as A;
    const query = this.build(db, ...markers).compile();
    const slots = query.parameters.map((value) => {
      const argument = markers.indexOf(value);
      return argument >= 0 ? { argument } : { constant: value };
    });
    const seen = new Set(slots.flatMap((slot) => ('argument' in slot ? [slot.argument] : [])));
    if (seen.size !== this.arity) {
      throw new Error(`A reusable query must pass each of its ${this.arity} arguments as a value`);
    }
    const compiled = { sql: isPostgres(db) ? query.sql : unplanned(query.sql), slots };
    this.compiled.set(db, compiled);
    return compiled;
  }
}

/**
 * SQLite, built with STAT4 as better-sqlite3 is, prepares a statement again whenever a new value is bound to
 * a parameter compared with an indexed column, once ANALYZE has sampled that index ("the value of a
 * WHERE-clause parameter might influence the choice of query plan", sqlite.org/c3ref/prepare.html): on a
 * point lookup that costs several times the lookup. A unary plus (`= +?`) keeps the comparison, its
 * affinity and the index, but the planner no longer plans for the value, so the statement is prepared once.
 */
function unplanned(text: string): string {
  return text.replace(/(=|<>|!=|<|>|<=|>=) \?/g, '$1 +?');
}
