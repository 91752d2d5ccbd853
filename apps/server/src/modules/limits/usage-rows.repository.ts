import { sql, type Kysely } from 'kysely';
import type { Database, Executor } from '../../db/database.js';
import type { UsageKind } from '../../db/limit-tables.js';
import { isPostgres } from '../../db/locks.js';
import {
  limitUsagePartsPostgres,
  limitUsageRows,
  recentCalls,
  type UsagePartRow,
} from '../telemetry-store/telemetry-store.js';
import { grantPartPostgres, grantRows, takeGrantsCall, type GrantsAsked } from './limit-grants.repository.js';

/** A subject a group read asks about, and whether it needs its calls of the current minute. */
export interface SubjectAsked {
  kind: UsageKind;
  subject: string;
  needsRecent: boolean;
}

/** Where a group read reads: the month's first hour, the hour up to which it is summed, the minute. */
export interface ReadSpan {
  from: string;
  cut: string;
  minute: string;
}

type Sums = { requests: number; tokens: number; cost_usd: number };

/**
 * Subjects' usage from the hour `span.from` on (summed up to `span.cut`), their grants, and the calls since
 * `span.minute` of those that need them (usage-reader.ts), read on `on` (`db` or a transaction of it): on
 * SQLite query after query; on PostgreSQL in one statement, whatever the number of subjects, as a statement
 * costs the server a round trip through the database's socket, more than the lookups in it.
 */
export async function snapshotRows(
  db: Kysely<Database>,
  asked: SubjectAsked[],
  span: ReadSpan,
  on: Executor = db,
) {
  if (!isPostgres(db)) return readSqlite(db, asked, span, on);
  return (await groupStatement(on, { asked, span })).read!;
}

/** The rows of a group read: its subjects' usage, their grants, and the chats' and users' minute. */
type ReadRows = Awaited<ReturnType<typeof readSqlite>>;

async function readSqlite(db: Kysely<Database>, asked: SubjectAsked[], span: ReadSpan, on: Executor) {
  const recent = (kind: 'chat' | 'user') => {
    const subjects = needingRecent(asked, kind);
    return subjects.length > 0 ? recentCalls(db, kind, subjects, span.minute, on) : null;
  };
  return {
    usage: await limitUsageRows(db, asked, span.from, span.cut, on),
    grants: await grantRows(db, asked, span.from, span.cut, span.minute, on),
    chats: await recent('chat'),
    users: await recent('user'),
  };
}

/** The chats or users among `asked` whose calls of the current minute are read. */
export const needingRecent = (asked: SubjectAsked[], kind: 'chat' | 'user') =>
  asked.filter((a) => a.needsRecent && a.kind === kind).map((a) => a.subject);

/**
 * PostgreSQL: one statement that carries a group read (as `snapshotRows` says), a group of grants
 * (`takeGrantsCall`, run on the database, never in a transaction), or both. All of it sees one snapshot of
 * the database, taken as the statement starts: the read counts none of the grants the statement takes.
 */
export async function groupStatement(
  on: Executor,
  read?: { asked: SubjectAsked[]; span: ReadSpan },
  take?: GrantsAsked,
): Promise<{ read?: ReadRows; refused?: Map<number, number> }> {
  const wanted = 'snapshot_subjects';
  const withs = [];
  const parts = [];
  if (read) {
    const { asked, span } = read;
    withs.push(sql`${sql.table(wanted)} (kind, subject, recent) as (
      select * from unnest(${asked.map((a) => a.kind)}::text[], ${asked.map((a) => a.subject)}::text[],
        ${asked.map((a) => a.needsRecent)}::boolean[])
    )`);
    parts.push(
      ...limitUsagePartsPostgres(wanted, span.from, span.cut, span.minute),
      grantPartPostgres(wanted, span.from, span.cut, span.minute),
    );
  }
  if (take) {
    withs.push(sql`taken as (${takeGrantsCall(take)})`);
    // A refused check's number and its full grant's position, in `requests` and `tokens`; named, as the
    // statement's first part names its columns.
    parts.push(sql`
      select 'taken' as part, null as kind, null as subject, null as grain, null as bucket,
        check_no as requests, grant_no as tokens, null as cost_usd
      from taken`);
  }
  const { rows } = await sql<UsagePartRow>`
    with ${sql.join(withs)} ${sql.join(parts, sql` union all `)}`.execute(on);
  const sums = (row: UsagePartRow): Sums => ({
    requests: Number(row.requests ?? 0),
    tokens: Number(row.tokens ?? 0),
    cost_usd: Number(row.cost_usd ?? 0),
  });
  const recent = (kind: 'chat' | 'user') =>
    read && needingRecent(read.asked, kind).length > 0 ? new Map<string, Sums>() : null;
  const found = {
    usage: [] as ({ kind: UsageKind; subject: string; bucket: string | null } & Sums)[],
    grants: [] as Awaited<ReturnType<typeof grantRows>>,
    chats: recent('chat'),
    users: recent('user'),
  };
  const refused = new Map<number, number>();
  for (const row of rows) {
    const { kind, subject, bucket } = row;
    if (row.part === 'usage') found.usage.push({ kind, subject, bucket, ...sums(row) });
    else if (row.part === 'grants') {
      found.grants.push({ kind, subject, grain: row.grain!, bucket, granted: sums(row).requests });
    } else if (row.part === 'taken') refused.set(Number(row.requests), Number(row.tokens));
    else (row.part === 'chat' ? found.chats : found.users)?.set(subject, sums(row));
  }
  return { read: read && found, refused: take && refused };
}
