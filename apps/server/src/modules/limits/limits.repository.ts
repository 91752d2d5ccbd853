import type {
  AccessRuleValues,
  LimitDenialsQuery,
  LimitMetric,
  LimitValues,
  LimitWindow,
} from '@lumi/contract';
import type { Selectable } from 'kysely';
import type { Database, Executor } from '../../db/database.js';
import type { AccessRuleRow } from './limit-book.js';

/** The limits, access rules and denials (migration 20261207090000-limits). */

export const listLimitRows = (db: Executor) => db.selectFrom('limits').selectAll().orderBy('id').execute();

/**
 * A page of the limits or of the access rules, newest first, before the cursor's; one more than asked for,
 * if there is one.
 */
export function rowsPage<T extends 'limits' | 'access_rules'>(
  db: Executor,
  table: T,
  query: { limit: number; cursor?: number },
) {
  let select = db.selectFrom(table as 'limits').selectAll();
  if (query.cursor !== undefined) select = select.where('id', '<', query.cursor);
  return select
    .orderBy('id', 'desc')
    .limit(query.limit + 1)
    .execute() as Promise<Selectable<Database[T]>[]>;
}

export const findLimitRow = (db: Executor, id: number) =>
  db.selectFrom('limits').selectAll().where('id', '=', id).executeTakeFirst();

/** The chats (users) with a limit of their own of this metric and window, which replaces the default. */
export async function subjectsWithOwn(
  db: Executor,
  kind: 'chat' | 'user',
  metric: LimitMetric,
  window: LimitWindow,
): Promise<Set<string>> {
  const rows = await db
    .selectFrom('limits')
    .select('subject')
    .where('scope', '=', kind)
    .where('metric', '=', metric)
    .where('window', '=', window)
    .execute();
  return new Set(rows.map((row) => row.subject));
}

/** How many rows `table` holds: limits or access rules, each kept up to a cap (LIMITS_LIMITS). */
export async function countRows(db: Executor, table: 'limits' | 'access_rules'): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

const columnsOf = (values: LimitValues) => ({
  scope: values.scope,
  subject: values.subject ?? '',
  metric: values.metric,
  window: values.window,
  amount: values.amount,
  mode: values.mode,
  raise_amount: values.raise_amount,
  raise_until: values.raise_until,
  note: values.note,
});

export async function insertLimit(
  db: Executor,
  values: LimitValues,
  by: { at: string; username: string | null },
): Promise<number> {
  const row = await db
    .insertInto('limits')
    .values({
      ...columnsOf(values),
      created_at: by.at,
      created_by: by.username,
      updated_at: by.at,
      updated_by: by.username,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateLimit(
  db: Executor,
  id: number,
  values: LimitValues,
  by: { at: string; username: string | null },
): Promise<void> {
  await db
    .updateTable('limits')
    .set({ ...columnsOf(values), updated_at: by.at, updated_by: by.username })
    .where('id', '=', id)
    .execute();
}

export async function deleteLimit(db: Executor, id: number): Promise<boolean> {
  const result = await db.deleteFrom('limits').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export const listRuleRows = (db: Executor) =>
  db.selectFrom('access_rules').selectAll().orderBy('id', 'desc').execute();

export const findRuleRow = (db: Executor, id: number) =>
  db.selectFrom('access_rules').selectAll().where('id', '=', id).executeTakeFirst();

export async function insertRule(
  db: Executor,
  values: AccessRuleValues,
  by: { at: string; username: string | null },
): Promise<number> {
  const row = await db
    .insertInto('access_rules')
    .values({ ...values, created_at: by.at, created_by: by.username })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The subject's entry, if it has one. */
export async function ruleOfSubject(
  db: Executor,
  { subject_kind, subject }: Pick<AccessRuleValues, 'subject_kind' | 'subject'>,
): Promise<AccessRuleRow | undefined> {
  return db
    .selectFrom('access_rules')
    .selectAll()
    .where('subject_kind', '=', subject_kind)
    .where('subject', '=', subject)
    .executeTakeFirst();
}

export async function deleteRule(db: Executor, id: number): Promise<boolean> {
  const result = await db.deleteFrom('access_rules').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** limit_denials also keeps calls admitted over a soft limit (for the alerts); these are not denials. */
const SOFT = 'over_soft_limit';

/** Denials since `from` of each of the limits `ids`. */
export async function denialCounts(db: Executor, from: string, ids: number[]): Promise<Map<number, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('limit_denials')
    .select(['limit_id', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('ts', '>=', from)
    .where('reason', '!=', SOFT)
    .where('limit_id', 'in', ids)
    .groupBy('limit_id')
    .execute();
  return new Map(rows.map((row) => [row.limit_id!, Number(row.n)]));
}

export async function countDenials(
  db: Executor,
  from: string,
  filters: Pick<LimitDenialsQuery, 'chat_id' | 'user_id' | 'limit_id'>,
): Promise<number> {
  let select = db
    .selectFrom('limit_denials')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('ts', '>=', from)
    .where('reason', '!=', SOFT);
  if (filters.chat_id !== undefined) select = select.where('chat_id', '=', filters.chat_id);
  if (filters.user_id !== undefined) select = select.where('user_id', '=', filters.user_id);
  if (filters.limit_id !== undefined) select = select.where('limit_id', '=', filters.limit_id);
  const row = await select.executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Calls that reached a limit since `from` (denied by a hard one or over a soft one), of one limit or any. */
export async function countReached(db: Executor, from: string, limitId: number | null): Promise<number> {
  let select = db
    .selectFrom('limit_denials')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('ts', '>=', from)
    .where('reason', 'in', ['limit_reached', SOFT]);
  if (limitId !== null) select = select.where('limit_id', '=', limitId);
  const row = await select.executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A page of denials, newest first (by id, which grows with time). */
export async function denialsPage(db: Executor, query: LimitDenialsQuery) {
  let select = db
    .selectFrom('limit_denials as d')
    .leftJoin('limits as l', 'l.id', 'd.limit_id')
    .selectAll('d')
    .select(['l.scope', 'l.subject', 'l.metric', 'l.window', 'l.amount'])
    .where('d.reason', '!=', SOFT);
  if (query.cursor !== undefined) select = select.where('d.id', '<', query.cursor);
  if (query.chat_id !== undefined) select = select.where('d.chat_id', '=', query.chat_id);
  if (query.user_id !== undefined) select = select.where('d.user_id', '=', query.user_id);
  if (query.limit_id !== undefined) select = select.where('d.limit_id', '=', query.limit_id);
  const rows = await select
    .orderBy('d.id', 'desc')
    .limit(query.limit + 1)
    .execute();
  return rows.map(({ scope, subject, metric, window, amount, ...denial }) => ({
    ...denial,
    limit:
      scope === null
        ? null
        : {
            scope,
            subject: subject === '' ? null : subject,
            metric: metric!,
            window: window!,
            amount: amount!,
          },
  }));
}
