import type { AuditQuery } from '@lumi/contract';
import { sql } from 'kysely';
import type { Executor, NewAuditLog } from '../../db/database.js';
import { isPostgres } from '../../db/locks.js';

/** What a page of the log is narrowed by: the list's filters and the id of the last entry already read. */
export type AuditPageQuery = Pick<AuditQuery, 'cursor' | 'action' | 'resource_type' | 'user' | 'from' | 'to'>;

export async function insertAuditLog(db: Executor, entry: NewAuditLog): Promise<void> {
  await db.insertInto('audit_logs').values(entry).execute();
}

/**
 * Up to `limit + 1` entries, newest first, older than `cursor` (the id of the last entry already read), so
 * a caller learns whether another page follows. A keyset page: each page costs the same, however deep.
 */
export async function listAuditLogs(db: Executor, query: AuditPageQuery, limit: number) {
  let q = db
    .selectFrom('audit_logs')
    .selectAll()
    .orderBy('id', 'desc')
    .limit(limit + 1);
  if (query.cursor) q = q.where('id', '<', query.cursor);
  if (query.action) q = q.where('action', '=', query.action);
  if (query.resource_type) q = q.where('resource_type', '=', query.resource_type);
  if (query.user) q = q.where((eb) => eb(eb.fn('lower', ['actor_username']), '=', query.user!.toLowerCase()));
  if (query.from) q = q.where('created_at', '>=', new Date(query.from).toISOString());
  if (query.to) q = q.where('created_at', '<=', new Date(query.to).toISOString());
  return q.execute();
}

/**
 * Up to `limit` entries with one of `actions` saved in [from, to), newest first: a backward scan of the
 * created_at index from `to` that stops at the `limit`-th match, so its cost follows the range's newest
 * entries, never the log's length. PostgreSQL plans it so; SQLite would rather read every entry of those
 * actions through the action index and sort them, so there the action is written `+action`, which SQLite
 * documents as the way to keep a term from choosing an index (https://sqlite.org/optoverview.html, "Disqualifying
 * WHERE clause terms using unary-+").
 */
export async function listChanges(
  db: Executor,
  actions: readonly string[],
  from: string,
  to: string,
  limit: number,
) {
  const action = isPostgres(db) ? sql.ref('action') : sql`+${sql.ref('action')}`;
  return db
    .selectFrom('audit_logs')
    .select([
      'id',
      'created_at',
      'actor_username',
      'action',
      'resource_type',
      'resource_id',
      'resource_name',
      'old_value',
      'new_value',
    ])
    .where('created_at', '>=', from)
    .where('created_at', '<', to)
    .where((eb) => eb(action, 'in', actions))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}
