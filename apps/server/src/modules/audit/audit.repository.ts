import type { AuditQuery } from '@lumi/contract';
import type { Executor, NewAuditLog } from '../../db/database.js';

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
