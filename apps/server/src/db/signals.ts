import { sql, type Kysely } from 'kysely';
import type { Database } from './database.js';

// The two statements that say something about the database rather than read or write an area's rows.

/** Resolves when the database answers a trivial query (readiness, /api/ready); rejects when it does not. */
export async function pingDatabase(db: Kysely<Database>): Promise<void> {
  await sql`select 1`.execute(db);
}

/**
 * PostgreSQL: sends `payload` to every session listening on `channel` (NOTIFY), delivered once the
 * statement's transaction commits (modules/cluster/invalidation.ts).
 */
export async function notifyChannel(db: Kysely<Database>, channel: string, payload: string): Promise<void> {
  await sql`select pg_notify(${channel}, ${payload})`.execute(db);
}
