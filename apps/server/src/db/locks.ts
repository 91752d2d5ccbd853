import { PostgresAdapter, sql, type Kysely, type Transaction } from 'kysely';
import type { Database, Executor } from './database.js';

/** Whether `db` talks to PostgreSQL (several instances may share it) rather than the embedded SQLite. */
export function isPostgres(db: Executor): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/**
 * Makes transactions that name the same key take turns until they end, so a rule that counts or changes
 * state ("at most 5 failed sign-ins", "a refresh token is used once") holds whatever the concurrency
 * (engineering guide 15). On PostgreSQL each key is a transaction-scoped advisory lock, which every
 * instance on the database shares. SQLite runs one transaction at a time already (one connection behind
 * Kysely's mutex), so there it costs nothing. Keys are taken in sorted order, so two transactions never
 * wait on each other.
 */
export async function lockForTransaction(trx: Transaction<Database>, keys: string[]): Promise<void> {
  if (!isPostgres(trx)) return;
  for (const key of [...new Set(keys)].sort()) {
    await sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(trx);
  }
}

/**
 * Runs `work` while holding the database-wide lock `key`, so instances starting at once take turns (the
 * first seeds, the next finds it done). The lock belongs to a transaction of its own that stays open until
 * `work` ends; `work` uses the pool's other connections. SQLite has one process: `work` just runs.
 */
export async function whileLocked<T>(db: Kysely<Database>, key: string, work: () => Promise<T>): Promise<T> {
  if (!isPostgres(db)) return work();
  return db.transaction().execute(async (trx) => {
    await lockForTransaction(trx, [key]);
    return work();
  });
}
