import { sql, type Insertable, type Kysely } from 'kysely';
import type { Database, Executor } from '../../db/database.js';
import { isPostgres } from '../../db/locks.js';
import { ReusableQuery } from '../../db/reusable-query.js';
import { topOverHours } from '../../db/subject-hours.js';
import type { LimitDenialsTable, UsageGrain, UsageKind } from '../../db/limit-tables.js';
import type { UsagePartRow } from '../telemetry-store/telemetry-store.js';

/**
 * What the allowance writes (migration 20261207090000-limits; docs/operators/limits.md, "How a call is
 * decided"): limit_grants counts the calls it admitted per chat, user and feature and per UTC minute and
 * hour; limit_denials keeps each call it denied.
 */

type Keyed = { kind: UsageKind; subject: string; grain: UsageGrain; bucket: string };
const columnsOf = (keys: Keyed[]) => [
  keys.map((k) => k.kind),
  keys.map((k) => k.subject),
  keys.map((k) => k.grain),
  keys.map((k) => k.bucket),
];

/** A group of checks' grants: `checks[i]` lists check i's counters (positions in `keys`) and their bounds. */
export interface GrantsAsked {
  keys: Keyed[];
  checks: { key: number; below: number }[][];
}

/**
 * PostgreSQL: the call that takes the grants of a group of checks (lumi_take_grants, migration
 * 20261210090000-limit-grant-function), each with the count its counter must stay below, as a query of
 * `check_no` and `grant_no`: for each refused check, the position among its grants of one that was full. The
 * counters are locked in the order of `keys`, which must be inLockOrder's; a check names each counter once.
 * It must run on the database, not in a transaction: its statement is a transaction of its own, whose commit
 * does not wait for the disk (the function sets `synchronous_commit = off` until its transaction ends).
 */
export function takeGrantsCall({ keys, checks }: GrantsAsked) {
  const [kinds, subjects, grains, buckets] = columnsOf(keys);
  const numbers = checks.flatMap((grants, check) => grants.map(() => check));
  return sql`
    select check_no, grant_no from lumi_take_grants(
      ${kinds}::text[], ${subjects}::text[], ${grains}::text[], ${buckets}::text[], ${numbers}::int[],
      ${checks.flatMap((grants) => grants.map((g) => g.key + 1))}::int[],
      ${checks.flatMap((grants) => grants.map((g) => g.below))}::bigint[])`;
}

/** The grants of a group of checks as `takeGrantsCall` takes them: each counter once, in lock order. */
export function grantsAsked(checks: { key: Keyed; below: number }[][]): GrantsAsked {
  const keys = inLockOrder(new Map(checks.flat().map(({ key }) => [grantId(key), key])).values());
  const position = new Map(keys.map((key, i) => [grantId(key), i]));
  return {
    keys,
    checks: checks.map((grants) =>
      grants.map(({ key, below }) => ({ key: position.get(grantId(key))!, below })),
    ),
  };
}

/** A grant counter's key as one string. */
export const grantId = (key: Keyed) => `${key.kind}|${key.subject}|${key.grain}|${key.bucket}`;

/**
 * Counters in the one order every writer of limit_grants locks them in (by grantId, in code units), so
 * parallel transactions, on one instance or several, never wait for each other in a cycle.
 */
export function inLockOrder<K extends Keyed>(keys: Iterable<K>): K[] {
  return [...keys]
    .map((key) => ({ id: grantId(key), key }))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map(({ key }) => key);
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

/**
 * A subject's grants from the hour `from` on, summed up to the hour `cut` (an hour row whose bucket is null)
 * and per hour from `cut` on, and its grants in the minute `minute`: lookups of the whole key. An OR of the
 * hours and the minute searched the subject's every row, each minute it was ever granted in among them.
 */
const grantRowsQuery = new ReusableQuery(
  5,
  (db, kind: UsageKind, subject: string, from: string, cut: string, minute: string) => {
    const ofSubject = (grain: UsageGrain) =>
      db
        .selectFrom('limit_grants')
        .where('kind', '=', kind)
        .where('subject', '=', subject)
        .where('grain', '=', grain);
    return ofSubject('hour')
      .select((eb) => [
        sql<UsageGrain>`'hour'`.as('grain'),
        sql<string>`null`.as('bucket'),
        eb.fn.sum<number | string>('granted').as('granted'),
      ])
      .where('bucket', '>=', from)
      .where('bucket', '<', cut)
      .unionAll(ofSubject('hour').select(['grain', 'bucket', 'granted']).where('bucket', '>=', cut))
      .unionAll(ofSubject('minute').select(['grain', 'bucket', 'granted']).where('bucket', '=', minute));
  },
);

type GrantQueryRow = { grain: UsageGrain; bucket: string | null; granted: number | string | null };

/** A row read for a subject, in numbers. */
const grantRow = (kind: UsageKind, subject: string, row: GrantQueryRow) => ({
  kind,
  subject,
  grain: row.grain,
  bucket: row.bucket,
  granted: Number(row.granted ?? 0),
});

/** The rows read for each subject (SQLite, one run each), named by subject, in numbers. */
function grantsOf(subjects: { kind: UsageKind; subject: string }[], read: GrantQueryRow[][]) {
  return subjects.flatMap(({ kind, subject }, i) => read[i]!.map((row) => grantRow(kind, subject, row)));
}

const grantRuns = (
  subjects: { kind: UsageKind; subject: string }[],
  from: string,
  cut: string,
  minute: string,
) =>
  subjects.map(({ kind, subject }): [UsageKind, string, string, string, string] => [
    kind,
    subject,
    from,
    cut,
    minute,
  ]);

/**
 * Subjects' grants from the hour `from` on (summed up to the hour `cut`: the hour row whose bucket is null,
 * then per hour) and in the minute `minute`, read at once on SQLite (`ReusableQuery.executeNow`); undefined
 * where they cannot be.
 */
export function grantRowsNow(
  db: Kysely<Database>,
  subjects: { kind: UsageKind; subject: string }[],
  from: string,
  cut: string,
  minute: string,
) {
  if (isPostgres(db)) return undefined;
  const read = grantRowsQuery.executeNowEach(db, grantRuns(subjects, from, cut, minute));
  return read && grantsOf(subjects, read);
}

/**
 * Subjects' grants, as `grantRowsNow` says, read on `on` (`db` or a transaction of it) on SQLite: one subject
 * after another. PostgreSQL reads them with the rest of a group read in one statement (grantPartPostgres).
 */
export async function grantRows(
  db: Kysely<Database>,
  subjects: { kind: UsageKind; subject: string }[],
  from: string,
  cut: string,
  minute: string,
  on: Executor = db,
) {
  return grantsOf(subjects, await grantRowsQuery.executeEach(db, grantRuns(subjects, from, cut, minute), on));
}

/**
 * PostgreSQL: the grants' part of a group read over the relation `subjects` (kind, subject), as `grantRows`
 * says, each granted count in `requests`. Each part is a lookup of the whole key: an OR of the hours and the
 * minute reads every minute a subject was granted in. The minute is a subquery's value, which PostgreSQL
 * plans for without knowing it: planned for the current minute, newer than anything its statistics hold, it
 * took the bucket index and read every grant of that minute for each subject (a statement took up to 100 ms
 * by the end of a minute at 2,000 checks a second; docs/benchmarks.md, "Allowance").
 */
export function grantPartPostgres(subjects: string, from: string, cut: string, minute: string) {
  return sql<UsagePartRow>`
    select 'grants', s.kind, s.subject, g.grain, g.bucket, g.granted, null, null
    from ${sql.table(subjects)} as s
    join lateral (
      select 'hour'::text as grain, null::text as bucket, sum(granted) as granted from limit_grants
      where kind = s.kind and subject = s.subject and grain = 'hour' and bucket >= ${from}
        and bucket < ${cut}
      union all
      select grain, bucket, granted from limit_grants
      where kind = s.kind and subject = s.subject and grain = 'hour' and bucket >= ${cut}
      union all
      select grain, bucket, granted from limit_grants
      where kind = s.kind and subject = s.subject and grain = 'minute' and bucket = (select ${minute}::text)
    ) g on true`;
}

export type GrantCount = {
  kind: UsageKind;
  subject: string;
  grain: UsageGrain;
  bucket: string;
  granted: number;
};

/** Row counts an upsert of grants is compiled for: a batch is cut into these, so few statements exist. */
const UPSERT_SIZES = [200, 64, 16, 4, 1];
const upserts = new Map(
  UPSERT_SIZES.map((rows) => [
    rows,
    new ReusableQuery(rows * 5, (db, ...values: unknown[]) =>
      db
        .insertInto('limit_grants')
        .values(
          Array.from({ length: rows }, (_, r) => {
            const [kind, subject, grain, bucket, granted] = values.slice(r * 5, r * 5 + 5);
            return { kind, subject, grain, bucket, granted } as GrantCount;
          }),
        )
        .onConflict((oc) =>
          oc
            .columns(['kind', 'subject', 'grain', 'bucket'])
            .doUpdateSet({ granted: sql`limit_grants.granted + excluded.granted` }),
        ),
    ),
  ]),
);

/**
 * Adds counted grants (on `on`, `db` or a transaction of it), in upserts of UPSERT_SIZES rows compiled once:
 * a write-behind flush writes thousands a second, and building each statement anew cost as much as
 * running it.
 */
export async function addGrants(
  db: Kysely<Database>,
  grants: GrantCount[],
  on: Executor = db,
): Promise<void> {
  let at = 0;
  for (const rows of UPSERT_SIZES) {
    for (; grants.length - at >= rows; at += rows) {
      const values = grants
        .slice(at, at + rows)
        .flatMap((g) => [g.kind, g.subject, g.grain, g.bucket, g.granted]);
      await upserts.get(rows)!.execute(db, values, on);
    }
  }
}

/**
 * Stores counted grants and recorded denials in one transaction, the grants in key order, so parallel
 * writers lock rows in the same order (limit-events.ts writes a flush in such parts).
 */
export async function storeLimitEvents(
  db: Kysely<Database>,
  grants: GrantCount[],
  denials: Omit<Insertable<LimitDenialsTable>, 'id'>[],
): Promise<void> {
  const ordered = inLockOrder(grants);
  await db.transaction().execute(async (trx) => {
    // PostgreSQL: the commit does not wait for the disk, as the counts it writes are behind already (a
    // second's may be lost); the counters it locks, a check's given back among them, are locked that much
    // shorter for the checks that take them (lumi_take_grants).
    if (isPostgres(db)) await sql`select set_config('synchronous_commit', 'off', true)`.execute(trx);
    if (ordered.length > 0) await addGrants(db, ordered, trx);
    if (denials.length > 0) await insertDenials(trx, denials);
  });
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
