import { sql, type Insertable, type Kysely } from 'kysely';
import type { Database, Executor } from '../../db/database.js';
import { ReusableQuery } from '../../db/reusable-query.js';
import { topOverHours } from '../../db/subject-hours.js';
import type { LimitDenialsTable, UsageGrain, UsageKind } from '../../db/limit-tables.js';

/**
 * What the allowance writes (migration 20261207090000-limits; docs/operators/limits.md, "How a call is
 * decided"): limit_grants counts the calls it admitted per chat, user and feature and per UTC minute and
 * hour; limit_denials keeps each call it denied.
 */

const grantOneQuery = new ReusableQuery(
  5,
  (db, kind: UsageKind, subject: string, grain: UsageGrain, bucket: string, below: number) =>
    db
      .insertInto('limit_grants')
      .values({ kind, subject, grain, bucket, granted: 1 })
      .onConflict((oc) =>
        oc
          .columns(['kind', 'subject', 'grain', 'bucket'])
          .doUpdateSet({ granted: sql`limit_grants.granted + 1` })
          .where('limit_grants.granted', '<', below),
      )
      .returning('granted'),
);

/**
 * Counts one grant in a bucket, only while the bucket's count stays below `below`: the request limits'
 * exact check. Of parallel grants, the database admits exactly as many as fit (PostgreSQL re-checks the
 * condition on the row it locked; SQLite runs them one at a time). False when it did not fit. Run on `on`,
 * `db` or a transaction of it.
 */
export async function grantOne(
  db: Kysely<Database>,
  key: { kind: UsageKind; subject: string; grain: UsageGrain; bucket: string },
  below: number,
  on: Executor = db,
): Promise<boolean> {
  if (below < 1) return false;
  const rows = await grantOneQuery.execute(db, [key.kind, key.subject, key.grain, key.bucket, below], on);
  return rows.length > 0;
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
  return topOverHours(db, { table: 'limit_grants', column: 'granted' }, kind, from, to, limit);
}

const grantRowsQuery = new ReusableQuery(
  4,
  (db, kind: UsageKind, subject: string, from: string, minute: string) =>
    db
      .selectFrom('limit_grants')
      .select(['grain', 'bucket', 'granted'])
      .where('kind', '=', kind)
      .where('subject', '=', subject)
      .where((eb) =>
        eb.or([
          eb.and([eb('grain', '=', 'hour'), eb('bucket', '>=', from)]),
          eb.and([eb('grain', '=', 'minute'), eb('bucket', '=', minute)]),
        ]),
      ),
);

/** A subject's grants per hour from the hour `from` on, and in the minute `minute`. */
export async function grantRows(
  db: Kysely<Database>,
  kind: UsageKind,
  subject: string,
  from: string,
  minute: string,
  on: Executor = db,
) {
  const rows = await grantRowsQuery.execute(db, [kind, subject, from, minute], on);
  return rows.map((row) => ({ grain: row.grain, bucket: row.bucket, granted: Number(row.granted) }));
}

/** Adds counted grants, one upsert per key (sorted, so parallel flushes lock rows in the same order). */
export async function addGrants(
  db: Executor,
  grants: { kind: UsageKind; subject: string; grain: UsageGrain; bucket: string; granted: number }[],
): Promise<void> {
  for (let i = 0; i < grants.length; i += 200) {
    await db
      .insertInto('limit_grants')
      .values(grants.slice(i, i + 200))
      .onConflict((oc) =>
        oc
          .columns(['kind', 'subject', 'grain', 'bucket'])
          .doUpdateSet({ granted: sql`limit_grants.granted + excluded.granted` }),
      )
      .execute();
  }
}

/** Records denied calls (and calls admitted over a soft limit). */
export async function insertDenials(db: Executor, denials: Omit<Insertable<LimitDenialsTable>, 'id'>[]) {
  for (let i = 0; i < denials.length; i += 200) {
    await db
      .insertInto('limit_denials')
      .values(denials.slice(i, i + 200))
      .execute();
  }
}
