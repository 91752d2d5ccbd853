import type { Int8 } from './telemetry-tables.js';

/**
 * The rollups of the llm_call dimensions (migration 20261127080000-llm-dimensions; docs/operators/metrics.md,
 * "Usage by feature, chat and user"): usage by feature and errors by type per UTC hour, spend by chat and by
 * user per UTC day. Same conventions as the other rollups: bucket keys are ISO 8601 UTC text (`YYYY-MM-DD`
 * for days), sums that can outgrow 32 bits are bigint, money is double precision.
 */
export interface LlmDimensionTables {
  llm_feature_hourly: LlmFeatureHourlyTable;
  llm_error_hourly: LlmErrorHourlyTable;
  llm_chat_daily: LlmChatDailyTable;
  llm_user_daily: LlmUserDailyTable;
  llm_spend_daily_totals: LlmSpendDailyTotalsTable;
  llm_spend_written: LlmSpendWrittenTable;
  llm_call_chats: LlmCallChatsTable;
  llm_call_users: LlmCallUsersTable;
  llm_feature_daily: LlmFeatureDailyTable;
  llm_error_daily: LlmErrorDailyTable;
  llm_latency_folded: LlmLatencyFoldedTable;
  integration_latency_folded: IntegrationLatencyFoldedTable;
}

/** A call reported without a feature counts under feature ''. */
export interface LlmFeatureHourlyTable {
  hour: string;
  feature: string;
  provider: string;
  model: string;
  requests: Int8;
  failed_requests: Int8;
  input_tokens: Int8;
  output_tokens: Int8;
  cost_usd: number;
}

/** Failed calls only; one reported without an error type counts under 'unknown'. */
export interface LlmErrorHourlyTable {
  hour: string;
  provider: string;
  model: string;
  error_type: string;
  errors: Int8;
}

/**
 * Calls with a chat_id, per UTC day and chat. A finished day keeps its top 1,000 chats by cost; the rest
 * are summed into the day's row with chat_id '__other__' (a Telegram id never looks like that).
 */
export interface LlmChatDailyTable {
  day: string;
  chat_id: string;
  requests: Int8;
  tokens: Int8;
  cost_usd: number;
}

/** As llm_chat_daily, for user_id. */
export interface LlmUserDailyTable {
  day: string;
  user_id: string;
  requests: Int8;
  tokens: Int8;
  cost_usd: number;
}

/**
 * Per UTC day, the sums of all of llm_chat_daily's (kind 'chats') or llm_user_daily's (kind 'users') rows
 * of the day, other row included (migration 20261129090000-llm-spend-reads).
 */
export interface LlmSpendDailyTotalsTable {
  kind: 'chats' | 'users';
  day: string;
  requests: Int8;
  tokens: Int8;
  cost_usd: number;
}

/**
 * One row: the last llm_calls id whose spend is in llm_chat_daily, llm_user_daily and
 * llm_spend_daily_totals (migration 20261208090000-spend-written). On SQLite the ingest worker writes
 * those sums behind its transactions, and a start sums the calls after this id (telemetry-store/spend-buffer.ts).
 */
export interface LlmSpendWrittenTable {
  id: number;
  last_call_id: Int8;
}

/**
 * SQLite only (migration 20261211090000-llm-call-subject-lookups): where a chat's (a user's) calls are, in
 * time order, with each call's tokens and cost; written behind the ingest transactions with the daily sums
 * above, up to llm_spend_written.
 */
interface LlmCallLookup {
  ts: string;
  id: number;
  tokens: number;
  cost_usd: number;
}
export type LlmCallChatsTable = LlmCallLookup & { chat_id: string };
export type LlmCallUsersTable = LlmCallLookup & { user_id: string };

/**
 * The coarse copies the metrics endpoints read on long ranges (migration 20261128100000-metrics-coarse-
 * rollups): llm_feature_hourly and llm_error_hourly summed per UTC day (`YYYY-MM-DD`).
 */
export type LlmFeatureDailyTable = Omit<LlmFeatureHourlyTable, 'hour'> & { day: string };
export type LlmErrorDailyTable = Omit<LlmErrorHourlyTable, 'hour'> & { day: string };

/**
 * A finished UTC hour's (grain 'hour') or day's (grain 'day', `start` its first hour) latency histogram of
 * a key as one row: `counts` is "bucket:count" pairs, comma-separated, in bucket order.
 */
export interface LlmLatencyFoldedTable {
  grain: 'hour' | 'day';
  start: string;
  provider: string;
  model: string;
  counts: string;
}

export interface IntegrationLatencyFoldedTable {
  grain: 'hour' | 'day';
  start: string;
  service_name: string;
  counts: string;
}
