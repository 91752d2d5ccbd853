import { LLM_CALL_USAGE_FIELDS, LLM_UNKNOWN_ERROR_TYPE, type LlmCallsFilters } from '@lumi/contract';
import { sql, type ExpressionBuilder } from 'kysely';
import type { Database, Executor } from '../../db/database.js';
import { isPostgres } from '../../db/locks.js';
import { lookupOf } from './llm-call-lookups.repository.js';

/**
 * The stored LLM calls, newest first (docs/operators/metrics.md, "Calls"): one page at a time by keyset on
 * (ts, id), so a page costs the same however deep it is, and a bounded count of the matches.
 */

export type CallFilters = Omit<LlmCallsFilters, 'from' | 'to'> & { from: string; to: string };
export interface CallCursor {
  ts: string;
  id: string;
}

/**
 * Any table with the calls' columns: llm_calls itself, or the candidates read from it (a derived table the
 * type system cannot name).
 */
type CallsBuilder = ExpressionBuilder<Database, 'llm_calls'>;

/** A failure reported without a type is listed under LLM_UNKNOWN_ERROR_TYPE, as the errors panel counts it. */
const typedError = (f: CallFilters) => f.error_type !== undefined && f.error_type !== LLM_UNKNOWN_ERROR_TYPE;

/**
 * The filter whose index reads the candidates (migrations 20261204090000-llm-call-explorer and
 * 20261206090000-llm-call-error-index: a chat, a user, an error type, the failures, each in the order the
 * list reads), the first of those given; null: the time index.
 */
function indexedBy(f: CallFilters): 'chat_id' | 'user_id' | 'error_type' | 'failed' | null {
  if (f.chat_id !== undefined) return 'chat_id';
  if (f.user_id !== undefined) return 'user_id';
  if (typedError(f)) return 'error_type';
  if (f.failed === 'true' || f.error_type !== undefined) return 'failed';
  return null;
}

/** The conditions that pick the candidates: the range, the cursor, and the one filter whose index reads them. */
function candidates(f: CallFilters, cursor: CallCursor | null) {
  const index = indexedBy(f);
  return (eb: CallsBuilder) => {
    const all = [eb('ts', '>=', f.from), eb('ts', '<', f.to)];
    if (cursor) {
      all.push(
        eb.or([
          eb('ts', '<', cursor.ts),
          eb.and([eb('ts', '=', cursor.ts), eb('id', '<', cursor.id as never)]),
        ]),
      );
    }
    if (index === 'chat_id') all.push(eb('chat_id', '=', f.chat_id!));
    if (index === 'user_id') all.push(eb('user_id', '=', f.user_id!));
    if (index === 'error_type') all.push(eb('success', '=', 0), eb('error_type', '=', f.error_type!));
    if (index === 'failed') all.push(eb('success', '=', 0));
    return eb.and(all);
  };
}

/** The other filters, applied to the candidates; null when there are none. */
function others(f: CallFilters) {
  const index = indexedBy(f);
  const rest = { ...f, from: undefined, to: undefined, [index ?? 'none']: undefined };
  // The failures' indexes read failed calls only: failed=true is met already, failed=false stays a filter.
  if ((index === 'failed' || index === 'error_type') && f.failed === 'true') rest.failed = undefined;
  if (Object.values(rest).every((value) => value === undefined)) return null;
  return (eb: CallsBuilder) => {
    const all = [];
    if (index !== 'chat_id' && f.chat_id !== undefined) all.push(eb('chat_id', '=', f.chat_id));
    if (index !== 'user_id' && f.user_id !== undefined) all.push(eb('user_id', '=', f.user_id));
    if (index !== 'failed' && index !== 'error_type' && (f.failed === 'true' || f.error_type !== undefined)) {
      all.push(eb('success', '=', 0));
    }
    if (f.provider !== undefined) all.push(eb('provider', '=', f.provider));
    if (f.model !== undefined) all.push(eb('model', '=', f.model));
    if (f.feature !== undefined) all.push(eb('feature', '=', f.feature));
    if (f.no_feature !== undefined) all.push(eb('feature', 'is', null));
    if (f.failed === 'false') all.push(eb('success', '=', 1));
    if (index !== 'error_type' && f.error_type !== undefined) {
      all.push(
        typedError(f)
          ? eb('error_type', '=', f.error_type)
          : eb.or([eb('error_type', 'is', null), eb('error_type', '=', f.error_type)]),
      );
    }
    if (f.min_latency_ms !== undefined) all.push(eb('latency_ms', '>=', f.min_latency_ms));
    if (f.min_cost_usd !== undefined) all.push(eb('cost_usd', '>=', f.min_cost_usd));
    return eb.and(all);
  };
}

const LIST_COLUMNS = [
  'id',
  'ts',
  ...LLM_CALL_USAGE_FIELDS,
  'cost_computed',
  'unpriced',
  'latency_ms',
  'cached',
  'success',
  'error_type',
] as const;

/**
 * Where the candidates are read from: llm_calls, or on SQLite, for a chat or a user, their lookup table
 * (migration 20261211090000-llm-call-subject-lookups) in its order, each joined to its call (CROSS JOIN: the
 * lookup first), under the name llm_calls so the rest of each query reads as for the table.
 */
function callsFor(db: Executor, f: CallFilters) {
  const index = indexedBy(f);
  if ((index !== 'chat_id' && index !== 'user_id') || isPostgres(db)) return db.selectFrom('llm_calls');
  const columns = sql.join(CALL_COLUMNS.map((column) => sql.ref(`c.${column}`)));
  const lookup = sql`(select s.ts, s.id, ${columns} from ${sql.table(lookupOf(index))} s
    cross join llm_calls c on c.id = s.id where ${sql.ref(`s.${index}`)} = ${f[index]!})`;
  return db.selectFrom(lookup.as('llm_calls')) as unknown as ReturnType<typeof db.selectFrom<'llm_calls'>>;
}

/** The candidates in list order (newest first), for the caller to choose what it reads of them. */
function inListOrder(db: Executor, f: CallFilters, cursor: CallCursor | null) {
  return callsFor(db, f).where(candidates(f, cursor)).orderBy('ts', 'desc').orderBy('id', 'desc');
}

function candidateRows(db: Executor, f: CallFilters, cursor: CallCursor | null) {
  return inListOrder(db, f, cursor).select(LIST_COLUMNS);
}

/**
 * The candidates' key and what the other filters read of them: all of it is in the failures' indexes
 * (migration 20261209090000-llm-call-failure-filters), so candidates found by one are filtered there.
 */
const FILTERED_COLUMNS = [
  'id',
  'ts',
  'success',
  'provider',
  'model',
  'feature',
  'chat_id',
  'user_id',
  'error_type',
  'latency_ms',
  'cost_usd',
] as const;

/** What the queries read of a call besides its time and id, which a chat's or user's lookup holds. */
const CALL_COLUMNS = [...new Set([...LIST_COLUMNS, ...FILTERED_COLUMNS])].filter(
  (column) => column !== 'id' && column !== 'ts',
);

function filteredCandidates(db: Executor, f: CallFilters, cursor: CallCursor | null, scanMax: number) {
  return inListOrder(db, f, cursor).select(FILTERED_COLUMNS).limit(scanMax);
}

const LISTED = LIST_COLUMNS.map((column) => `llm_calls.${column}` as const);

export type LlmCallRow = Awaited<ReturnType<ReturnType<typeof candidateRows>['execute']>>[number];

export interface CallsPage {
  /** Up to `limit` calls, newest first. */
  rows: LlmCallRow[];
  /** Where the next page starts (exclusive); null when no call of the range is left to read. */
  next: CallCursor | null;
  /** True when the page stopped at the scan bound before it was full: `next` continues the search. */
  searchCut: boolean;
}

/**
 * A page of calls older than `cursor` (or the newest). Filters without an index of their own are applied to
 * at most `scanMax` candidates in time order, so a filter few calls match costs a bounded read, not the
 * whole range: such a page may hold fewer than `limit` calls and still continue.
 */
export async function llmCallsPage(
  db: Executor,
  filters: CallFilters,
  cursor: CallCursor | null,
  limit: number,
  scanMax: number,
): Promise<CallsPage> {
  const rest = others(filters);
  // With other filters, the page's calls are picked among the candidates first, then read whole.
  const rows = rest
    ? await db
        .selectFrom(
          db
            .selectFrom(filteredCandidates(db, filters, cursor, scanMax).as('c'))
            .select(['c.id', 'c.ts'])
            .where(rest as never)
            .orderBy('c.ts', 'desc')
            .orderBy('c.id', 'desc')
            .limit(limit + 1)
            .as('m'),
        )
        .innerJoin('llm_calls', (join) =>
          join.onRef('llm_calls.id', '=', 'm.id').onRef('llm_calls.ts', '=', 'm.ts'),
        )
        .select(LISTED)
        .orderBy('m.ts', 'desc')
        .orderBy('m.id', 'desc')
        .execute()
    : await candidateRows(db, filters, cursor)
        .limit(limit + 1)
        .execute();
  const page = (rows as LlmCallRow[]).slice(0, limit);
  const cursorOf = (row: { ts: string; id: number | string }) => ({ ts: row.ts, id: String(row.id) });
  if (rows.length > limit) return { rows: page, next: cursorOf(page.at(-1)!), searchCut: false };
  if (!rest) return { rows: page, next: null, searchCut: false };
  // A short page: the range is read to its end, or the scan stopped at its bound, at this candidate.
  const last = await inListOrder(db, filters, cursor)
    .select(['ts', 'id'])
    .offset(scanMax - 1)
    .limit(1)
    .executeTakeFirst();
  return last
    ? { rows: page, next: cursorOf(last), searchCut: true }
    : { rows: page, next: null, searchCut: false };
}

/**
 * How many calls match, counting at most `max`; filters without an index of their own are counted among at
 * most `scanMax` candidates, the newest. `lowerBound` when there may be more than `count`.
 */
export async function llmCallsCount(
  db: Executor,
  filters: CallFilters,
  max: number,
  scanMax: number,
): Promise<{ count: number; lowerBound: boolean }> {
  const rest = others(filters);
  if (!rest) {
    const row = await db
      .selectFrom(callsFor(db, filters).select('id').where(candidates(filters, null)).limit(max).as('m'))
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    const count = Number(row.n);
    return { count, lowerBound: count >= max };
  }
  const row = await db
    .selectFrom(filteredCandidates(db, filters, null, scanMax + 1).as('c'))
    .select((eb) => [
      eb.fn.countAll<number | string>().as('scanned'),
      eb.fn
        .sum<number | string | null>(
          eb
            .case()
            .when(rest as never)
            .then(1)
            .else(0)
            .end(),
        )
        .as('matched'),
    ])
    .executeTakeFirstOrThrow();
  const count = Math.min(Number(row.matched ?? 0), max);
  return { count, lowerBound: Number(row.scanned) > scanMax || count >= max };
}

/** One call with everything Lumi keeps of it. */
export function llmCallById(db: Executor, id: string) {
  return db
    .selectFrom('llm_calls')
    .select([...LIST_COLUMNS, 'client_id', 'response_model', 'api_key_id', 'content_id'])
    .where('id', '=', id as never)
    .executeTakeFirst();
}
