import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from './database.js';

/**
 * PostgreSQL only: the raw event tables are partitioned by UTC day on `ts` (ISO 8601 UTC text, so text
 * ranges are time ranges). Each table has one partition per day, `<table>_p20261124`, created ahead by the
 * housekeeping job, and a default partition, `<table>_default`, that catches an event for a day without a
 * partition (a late event older than the partitions, or one when housekeeping has not run for days).
 * Retention drops whole day partitions; SQLite keeps one table per type and deletes rows.
 */
export const EVENT_TABLES = [
  'llm_calls',
  'integration_calls',
  'cache_reports',
  'heartbeats',
  'bot_errors',
  'market_data_reports',
] as const;
export type EventTable = (typeof EVENT_TABLES)[number];

/** Days ahead of today that always have a partition, so a day never starts in the default partition. */
export const PARTITION_DAYS_AHEAD = 3;
const DAY_MS = 86_400_000;

type Db = Kysely<Database> | Kysely<unknown>;
type Trx = Transaction<Database> | Transaction<unknown>;

/** The UTC day of a time in ms, as 'YYYY-MM-DD'. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

function partitionName(table: EventTable, day: string): string {
  return `${table}_p${day.replaceAll('-', '')}`;
}

function dayBounds(day: string): [string, string] {
  const start = Date.parse(`${day}T00:00:00.000Z`);
  return [new Date(start).toISOString(), new Date(start + DAY_MS).toISOString()];
}

/** The day a partition holds, from its name; null for the default partition or a name not ours. */
function partitionDay(table: EventTable, name: string): string | null {
  const match = new RegExp(`^${table}_p(\\d{4})(\\d{2})(\\d{2})$`).exec(name);
  return match ? `${match[1]}-${match[2]}-${match[3]}` : null;
}

/** Creates the partition of `day` unless it exists; rows of that day already in the default move into it. */
export async function ensureDayPartition(trx: Trx, table: EventTable, day: string): Promise<boolean> {
  const name = partitionName(table, day);
  const exists = await sql<{ found: string | null }>`select to_regclass(${name})::text as found`.execute(trx);
  if (exists.rows[0]?.found) return false;
  const [from, to] = dayBounds(day);
  const stranded =
    await sql`select 1 from ${sql.table(`${table}_default`)} where ts >= ${from} and ts < ${to} limit 1`.execute(
      trx,
    );
  if (stranded.rows.length === 0) {
    await sql`create table ${sql.table(name)} partition of ${sql.table(table)} for values from (${sql.lit(from)}) to (${sql.lit(to)})`.execute(
      trx,
    );
    return true;
  }
  // A partition cannot be created over rows the default partition holds: move them into a plain table
  // first, then attach it (all in this transaction).
  await sql`create table ${sql.table(name)} (like ${sql.table(table)} including defaults)`.execute(trx);
  await sql`with moved as (delete from ${sql.table(`${table}_default`)} where ts >= ${from} and ts < ${to} returning *)
    insert into ${sql.table(name)} select * from moved`.execute(trx);
  await sql`alter table ${sql.table(table)} attach partition ${sql.table(name)} for values from (${sql.lit(from)}) to (${sql.lit(to)})`.execute(
    trx,
  );
  return true;
}

/** Serialises partition maintenance across instances for the rest of the transaction. */
async function lockPartitions(trx: Trx): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended('lumi:event-partitions', 0))`.execute(trx);
}

/** Creates the partitions of today and PARTITION_DAYS_AHEAD days ahead where missing; returns how many. */
export async function ensureEventPartitions(db: Db, now: number): Promise<number> {
  return (db as Kysely<Database>).transaction().execute(async (trx) => {
    await lockPartitions(trx);
    let created = 0;
    for (const table of EVENT_TABLES) {
      for (let ahead = 0; ahead <= PARTITION_DAYS_AHEAD; ahead += 1) {
        if (await ensureDayPartition(trx, table, utcDay(now + ahead * DAY_MS))) created += 1;
      }
    }
    return created;
  });
}

/**
 * Drops every day partition that ends at or before `before` (whole days past retention), counting the
 * events they held. Rows of the day that straddles `before` stay until the whole day is past. Each drop is
 * a short transaction of its own: dropping a partition locks its table, so ingestion waits only for that.
 */
export async function dropEventPartitionsBefore(
  db: Db,
  before: string,
): Promise<{ partitions: number; events: number }> {
  const kysely = db as Kysely<Database>;
  let partitions = 0;
  let events = 0;
  for (const table of EVENT_TABLES) {
    const children = await sql<{ name: string }>`select c.relname as name from pg_inherits i
      join pg_class c on c.oid = i.inhrelid where i.inhparent = ${table}::regclass`.execute(kysely);
    for (const { name } of children.rows) {
      const day = partitionDay(table, name);
      if (!day || dayBounds(day)[1] > before) continue;
      const dropped = await kysely.transaction().execute(async (trx) => {
        await lockPartitions(trx);
        const exists = await sql<{
          found: string | null;
        }>`select to_regclass(${name})::text as found`.execute(trx);
        // Another instance's retention run may have dropped it meanwhile.
        if (!exists.rows[0]?.found) return null;
        const counted = await sql<{ n: string }>`select count(*) as n from ${sql.table(name)}`.execute(trx);
        await sql`drop table ${sql.table(name)}`.execute(trx);
        return Number(counted.rows[0]?.n ?? 0);
      });
      if (dropped === null) continue;
      events += dropped;
      partitions += 1;
    }
  }
  return { partitions, events };
}

/**
 * Turns a plain event table (as the telemetry migration made it) into a partitioned one holding the same
 * rows: partitions for each day it has rows of and for today and the days ahead, and the default.
 */
export async function partitionEventTable(trx: Trx, table: EventTable, now: number): Promise<void> {
  const old = `${table}_unpartitioned`;
  await sql`alter table ${sql.table(table)} rename to ${sql.table(old)}`.execute(trx);
  await sql`drop index ${sql.table(`${table}_client_id_uq`)}`.execute(trx);
  await sql`drop index ${sql.table(`${table}_ts_idx`)}`.execute(trx);
  await sql`alter table ${sql.table(old)} drop constraint ${sql.table(`${table}_pkey`)}`.execute(trx);
  await sql`create table ${sql.table(table)} (like ${sql.table(old)} including defaults) partition by range (ts)`.execute(
    trx,
  );
  // (ts, id): the newest row in one index step per partition, as before; the key must hold the partition key.
  await sql`alter table ${sql.table(table)} add constraint ${sql.table(`${table}_pkey`)} primary key (ts, id)`.execute(
    trx,
  );
  await sql`create unique index ${sql.table(`${table}_client_id_uq`)} on ${sql.table(table)} (client_id, ts)`.execute(
    trx,
  );
  await sql`alter sequence ${sql.table(`${table}_id_seq`)} owned by ${sql.ref(`${table}.id`)}`.execute(trx);
  await sql`create table ${sql.table(`${table}_default`)} partition of ${sql.table(table)} default`.execute(
    trx,
  );
  const days = await sql<{
    day: string;
  }>`select distinct substr(ts, 1, 10) as day from ${sql.table(old)}`.execute(trx);
  const wanted = new Set(days.rows.map((r) => r.day));
  for (let ahead = 0; ahead <= PARTITION_DAYS_AHEAD; ahead += 1) wanted.add(utcDay(now + ahead * DAY_MS));
  for (const day of [...wanted].sort()) await ensureDayPartition(trx, table, day);
  await sql`insert into ${sql.table(table)} select * from ${sql.table(old)}`.execute(trx);
  await sql`drop table ${sql.table(old)}`.execute(trx);
}
