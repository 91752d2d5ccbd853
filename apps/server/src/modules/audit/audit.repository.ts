import type { AuditQuery } from '@lumi/contract';
import type { Executor, NewAuditLog } from '../../db/database.js';

export async function insertAuditLog(db: Executor, entry: NewAuditLog): Promise<void> {
  await db.insertInto('audit_logs').values(entry).execute();
}

/** Newest first; `cursor` is the id of the last entry already shown. */
export async function listAuditLogs(db: Executor, query: AuditQuery) {
  let q = db
    .selectFrom('audit_logs')
    .selectAll()
    .orderBy('id', 'desc')
    .limit(query.limit + 1);
  if (query.cursor) q = q.where('id', '<', query.cursor);
  if (query.action) q = q.where('action', '=', query.action);
  if (query.resource_type) q = q.where('resource_type', '=', query.resource_type);
  if (query.user) q = q.where((eb) => eb(eb.fn('lower', ['actor_username']), '=', query.user!.toLowerCase()));
  if (query.from) q = q.where('created_at', '>=', new Date(query.from).toISOString());
  if (query.to) q = q.where('created_at', '<=', new Date(query.to).toISOString());
  return q.execute();
}
