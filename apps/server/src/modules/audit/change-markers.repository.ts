import type { Executor } from '../../db/database.js';

/**
 * Up to `limit` entries with one of `actions` saved in [from, to), newest first. A range read of the
 * created_at index, narrowed by action, so its cost follows the range's entries, not the log's length.
 */
export async function listChanges(
  db: Executor,
  actions: readonly string[],
  from: string,
  to: string,
  limit: number,
) {
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
    .where('action', 'in', actions)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}
