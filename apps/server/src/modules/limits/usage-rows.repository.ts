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
import { grantPartPostgres, grantRows } from './limit-grants.repository.js';

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
  const needingRecent = (kind: 'chat' | 'user') =>
    asked.filter((a) => a.needsRecent && a.kind === kind).map((a) => a.subject);
  if (!isPostgres(db)) {
    const recent = (kind: 'chat' | 'user') => {
      const subjects = needingRecent(kind);
      return subjects.length > 0 ? recentCalls(db, kind, subjects, span.minute, on) : null;
    };
    return {
      usage: await limitUsageRows(db, asked, span.from, span.cut, on),
      grants: await grantRows(db, asked, span.from, span.cut, span.minute, on),
      chats: await recent('chat'),
      users: await recent('user'),
    };
  }
  const wanted = 'snapshot_subjects';
  const parts = [
    ...limitUsagePartsPostgres(wanted, span.from, span.cut, span.minute),
    grantPartPostgres(wanted, span.from, span.cut, span.minute),
  ];
  const { rows } = await sql<UsagePartRow>`
    with ${sql.table(wanted)} (kind, subject, recent) as (
      select * from unnest(${asked.map((a) => a.kind)}::text[], ${asked.map((a) => a.subject)}::text[],
        ${asked.map((a) => a.needsRecent)}::boolean[])
    )
    ${sql.join(parts, sql` union all `)}`.execute(on);
  const sums = (row: UsagePartRow): Sums => ({
    requests: Number(row.requests ?? 0),
    tokens: Number(row.tokens ?? 0),
    cost_usd: Number(row.cost_usd ?? 0),
  });
  const recent = (kind: 'chat' | 'user') => {
    const subjects = needingRecent(kind);
    return subjects.length > 0 ? new Map<string, Sums>() : null;
  };
  const read = {
    usage: [] as ({ kind: UsageKind; subject: string; bucket: string | null } & Sums)[],
    grants: [] as Awaited<ReturnType<typeof grantRows>>,
    chats: recent('chat'),
    users: recent('user'),
  };
  for (const row of rows) {
    const { kind, subject, bucket } = row;
    if (row.part === 'usage') read.usage.push({ kind, subject, bucket, ...sums(row) });
    else if (row.part === 'grants') {
      read.grants.push({ kind, subject, grain: row.grain!, bucket, granted: sums(row).requests });
    } else (row.part === 'chat' ? read.chats : read.users)?.set(subject, sums(row));
  }
  return read;
}
