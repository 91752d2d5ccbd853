import { sql, type Insertable } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { LimitDenialsTable, UsageGrain, UsageKind } from '../../db/limit-tables.js';

/**
 * What the allowance writes (migration 20261207090000-limits; docs/operators/limits.md, "How a call is
 * decided"): limit_grants counts the calls it admitted per chat, user and feature and per UTC minute and
 * hour; limit_denials keeps each call it denied.
 */

export async function grantedBetween(
  db: Executor,
  kind: UsageKind,
  subject: string,
  grain: UsageGrain,
  from: string,
  to: string,
): Promise<number> {
  const row = await db
    .selectFrom('limit_grants')
    .select((eb) => eb.fn.sum<number | string | null>('granted').as('granted'))
    .where('kind', '=', kind)
    .where('subject', '=', subject)
    .where('grain', '=', grain)
    .where('bucket', '>=', from)
    .where('bucket', '<', to)
    .executeTakeFirstOrThrow();
  return Number(row.granted ?? 0);
}

/**
 * Counts one grant in a bucket, only while the bucket's count stays below `below` (null: always): the
 * request limits' exact check. Of parallel grants, the database admits exactly as many as fit (PostgreSQL
 * re-checks the condition on the row it locked; SQLite runs them one at a time). False when it did not fit.
 */
export async function grantOne(
  db: Executor,
  key: { kind: UsageKind; subject: string; grain: UsageGrain; bucket: string },
  below: number | null,
): Promise<boolean> {
  if (below !== null && below < 1) return false;
  const row = await db
    .insertInto('limit_grants')
    .values({ ...key, granted: 1 })
    .onConflict((oc) => {
      const update = oc.columns(['kind', 'subject', 'grain', 'bucket']).doUpdateSet({
        granted: sql`limit_grants.granted + 1`,
      });
      return below === null ? update : update.where('limit_grants.granted', '<', below);
    })
    .returning('granted')
    .executeTakeFirst();
  return row !== undefined;
}

/** Records a denied call. */
export async function insertDenial(
  db: Executor,
  denial: Omit<Insertable<LimitDenialsTable>, 'id'>,
): Promise<void> {
  await db.insertInto('limit_denials').values(denial).execute();
}

/** Removes the grants of buckets before `before` (an ISO bucket name) and the denials before it. */
export async function pruneGrants(db: Executor, before: string): Promise<number> {
  const grants = await db.deleteFrom('limit_grants').where('bucket', '<', before).executeTakeFirst();
  const denials = await db.deleteFrom('limit_denials').where('ts', '<', before).executeTakeFirst();
  return Number(grants.numDeletedRows) + Number(denials.numDeletedRows);
}

/** The subjects the allowance admitted the most calls for over whole hours, for a request limit's list. */
export async function topGranted(
  db: Executor,
  kind: UsageKind,
  from: string,
  to: string,
  limit: number,
): Promise<{ subject: string; used: number }[]> {
  const rows = await db
    .selectFrom('limit_grants')
    .select(['subject', (eb) => eb.fn.sum<number | string>('granted').as('used')])
    .where('kind', '=', kind)
    .where('grain', '=', 'hour')
    .where('bucket', '>=', from)
    .where('bucket', '<', to)
    .groupBy('subject')
    .orderBy('used', 'desc')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ subject: row.subject, used: Number(row.used) }));
}
