import { LLM_UNKNOWN_ERROR_TYPE, type LlmCallsFilters } from '@lumi/contract';
import type { ExpressionBuilder } from 'kysely';
import type { Database, Executor } from '../../db/database.js';

/**
 * The stored LLM calls, newest first (docs/operators/metrics.md, "Calls"): one page at a time by keyset on
 * (ts, id), so a page costs the same however deep it is, and a bounded count of the matches.
 */

export type CallFilters = Omit<LlmCallsFilters, 'from' | 'to'> & { from: string; to: string };
export interface CallCursor {
  ts: string;
  id: string;
}

type CallsBuilder = ExpressionBuilder<Database, 'llm_calls'>;

function matching(f: CallFilters) {
  return (eb: CallsBuilder) => {
    const all = [eb('ts', '>=', f.from), eb('ts', '<', f.to)];
    if (f.provider !== undefined) all.push(eb('provider', '=', f.provider));
    if (f.model !== undefined) all.push(eb('model', '=', f.model));
    if (f.feature !== undefined) all.push(eb('feature', '=', f.feature));
    if (f.no_feature !== undefined) all.push(eb('feature', 'is', null));
    if (f.chat_id !== undefined) all.push(eb('chat_id', '=', f.chat_id));
    if (f.user_id !== undefined) all.push(eb('user_id', '=', f.user_id));
    if (f.failed !== undefined) all.push(eb('success', '=', f.failed === 'true' ? 0 : 1));
    if (f.error_type !== undefined) {
      // The errors panel counts a failure reported without a type as LLM_UNKNOWN_ERROR_TYPE.
      all.push(eb('success', '=', 0));
      all.push(
        f.error_type === LLM_UNKNOWN_ERROR_TYPE
          ? eb.or([eb('error_type', 'is', null), eb('error_type', '=', f.error_type)])
          : eb('error_type', '=', f.error_type),
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
  'provider',
  'model',
  'feature',
  'chat_id',
  'user_id',
  'input_tokens',
  'output_tokens',
  'usage_known',
  'cost_usd',
  'cost_computed',
  'unpriced',
  'latency_ms',
  'cached',
  'success',
  'error_type',
] as const;

/** A page of calls older than `cursor` (or the newest), one more than `limit` to tell whether more follow. */
export function llmCallsPage(db: Executor, filters: CallFilters, cursor: CallCursor | null, limit: number) {
  let query = db.selectFrom('llm_calls').select(LIST_COLUMNS).where(matching(filters));
  if (cursor) {
    query = query.where((eb) =>
      eb.or([
        eb('ts', '<', cursor.ts),
        eb.and([eb('ts', '=', cursor.ts), eb('id', '<', cursor.id as never)]),
      ]),
    );
  }
  return query
    .orderBy('ts', 'desc')
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute();
}

/** How many calls match, counting at most `max`. */
export async function llmCallsCount(db: Executor, filters: CallFilters, max: number): Promise<number> {
  const row = await db
    .selectFrom((qb) => qb.selectFrom('llm_calls').select('id').where(matching(filters)).limit(max).as('m'))
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** One call with everything Lumi keeps of it. */
export function llmCallById(db: Executor, id: string) {
  return db
    .selectFrom('llm_calls')
    .select([...LIST_COLUMNS, 'client_id', 'response_model', 'api_key_id', 'content_id'])
    .where('id', '=', id as never)
    .executeTakeFirst();
}

export type LlmCallRow = Awaited<ReturnType<typeof llmCallsPage>>[number];
