import { PostgresAdapter, sql, type Transaction } from 'kysely';
import type { Database } from './database.js';

/**
 * Makes transactions that name the same key take turns until they end, so a rule that counts or changes
 * state ("at most 5 failed sign-ins", "a refresh token is used once") holds whatever the concurrency
 * (engineering guide 15). On PostgreSQL each key is a transaction-scoped advisory lock, which every
 * instance on the database shares. SQLite runs one transaction at a time already (one connection behind
 * Kysely's mutex), so there it costs nothing. Keys are taken in sorted order, so two transactions never
 * wait on each other.
 */
export async function lockForTransaction(trx: Transaction<Database>, keys: string[]): Promise<void> {
  if (!(trx.getExecutor().adapter instanceof PostgresAdapter)) return;
  for (const key of [...new Set(keys)].sort()) {
    await sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(trx);
  }
}
