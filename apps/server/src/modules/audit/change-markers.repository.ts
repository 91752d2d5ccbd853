import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { isPostgres } from '../../db/locks.js';

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
