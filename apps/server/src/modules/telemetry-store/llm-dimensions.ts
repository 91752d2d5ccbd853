import { LLM_UNKNOWN_ERROR_TYPE } from '@lumi/contract';
import type { Insertable } from 'kysely';
import type {
  LlmChatDailyTable,
  LlmErrorHourlyTable,
  LlmFeatureHourlyTable,
} from '../../db/llm-dimension-tables.js';
import { hourKey } from '../../lib/hour-buckets.js';
import type { RawRow } from './events.repository.js';
import { sortedValues } from './rollup-aggregation.js';

/**
 * Sums a batch of stored llm_calls into the dimension rollups (docs/operators/metrics.md, "Usage by feature,
 * chat and user"), one row per rollup key, so the ingest transaction writes each key once. As in
 * rollup-aggregation.ts, rows come back sorted by key, so concurrent batches lock rollup rows in the same
 * order. Hours and days are UTC: a stored `ts` is ISO 8601 UTC text, so its first ten characters are its UTC
 * day.
 */

export type FeatureSum = Insertable<LlmFeatureHourlyTable>;
export type ErrorTypeSum = Insertable<LlmErrorHourlyTable>;
/** A day's spend of one chat or user: `key` is the chat_id or user_id. */
export type SpendSum = Omit<Insertable<LlmChatDailyTable>, 'chat_id'> & { key: string };

export interface LlmDimensionSums {
  features: FeatureSum[];
  errors: ErrorTypeSum[];
  chats: SpendSum[];
  users: SpendSum[];
}

/** A call reported without a feature counts under this one; the API names it null. */
export const NO_FEATURE = '';

/** The spenders ranked by day: chats and users. */
export const SPEND_KINDS = ['chats', 'users'] as const;
export type SpendKind = (typeof SPEND_KINDS)[number];

/** The key of a day's row that holds the chats (users) folded out of its top list; no Telegram id. */
export const OTHER_KEY = '__other__';

/**
 * The hour key of a stored `ts` (ISO 8601 UTC text, `YYYY-MM-DDTHH:mm:ss.sssZ`): its first 13 characters
 * name the hour, which spares a Date per row on the ingest path.
 */
export function hourOfStored(ts: string): string {
  return ts.length === 24 && ts.endsWith('Z') ? `${ts.slice(0, 13)}:00:00.000Z` : hourKey(Date.parse(ts));
}

/** A separator no dimension contains (they are validated, printable text). */
const SEP = '\u0000';

function addSpend(map: Map<string, SpendSum>, day: string, key: string, tokens: number, cost: number) {
  const mapKey = day + SEP + key;
  const sum = map.get(mapKey) ?? { day, key, requests: 0, tokens: 0, cost_usd: 0 };
  sum.requests += 1;
  sum.tokens += tokens;
  sum.cost_usd += cost;
  map.set(mapKey, sum);
}

export function aggregateLlmDimensions(rows: RawRow<'llm_calls'>[]): LlmDimensionSums {
  const features = new Map<string, FeatureSum>();
  const errors = new Map<string, ErrorTypeSum>();
  const chats = new Map<string, SpendSum>();
  const users = new Map<string, SpendSum>();
  for (const row of rows) {
    const hour = hourOfStored(row.ts);
    const feature = row.feature ?? NO_FEATURE;
    const featureKey = [hour, feature, row.provider, row.model].join(SEP);
    const sum = features.get(featureKey) ?? {
      hour,
      feature,
      provider: row.provider,
      model: row.model,
      requests: 0,
      failed_requests: 0,
      input_tokens: 0,
      output_tokens: 0,
      cost_usd: 0,
    };
    sum.requests += 1;
    sum.failed_requests += row.success ? 0 : 1;
    sum.input_tokens += row.input_tokens;
    sum.output_tokens += row.output_tokens;
    sum.cost_usd += row.cost_usd;
    features.set(featureKey, sum);

    // error_type on a successful call (one that failed, was retried and succeeded) is stored, not counted.
    if (!row.success) {
      const errorType = row.error_type ?? LLM_UNKNOWN_ERROR_TYPE;
      const errorKey = [hour, row.provider, row.model, errorType].join(SEP);
      const error = errors.get(errorKey) ?? {
        hour,
        provider: row.provider,
        model: row.model,
        error_type: errorType,
        errors: 0,
      };
      error.errors += 1;
      errors.set(errorKey, error);
    }

    const day = row.ts.slice(0, 10);
    const tokens = row.input_tokens + row.output_tokens;
    if (row.chat_id) addSpend(chats, day, row.chat_id, tokens, row.cost_usd);
    if (row.user_id) addSpend(users, day, row.user_id, tokens, row.cost_usd);
  }
  return {
    features: sortedValues(features),
    errors: sortedValues(errors),
    chats: sortedValues(chats),
    users: sortedValues(users),
  };
}
