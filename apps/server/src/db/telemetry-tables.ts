import type { ColumnType, Generated, Selectable } from 'kysely';
import type { LlmDimensionTables } from './llm-dimension-tables.js';

/**
 * The tables of API keys and bot telemetry (migration 20261122120000-telemetry), kept beside database.ts
 * so each area's schema reads on its own. Same conventions: ISO 8601 UTC text timestamps, 0/1 booleans.
 */
export interface TelemetryTables extends LlmDimensionTables {
  api_keys: ApiKeysTable;
  llm_calls: LlmCallsTable;
  integration_calls: IntegrationCallsTable;
  cache_reports: CacheReportsTable;
  heartbeats: HeartbeatsTable;
  bot_errors: BotErrorsTable;
  market_data_reports: MarketDataReportsTable;
  feedback_events: FeedbackEventsTable;
  llm_usage_hourly: LlmUsageHourlyTable;
  integration_hourly: IntegrationHourlyTable;
  cache_hourly: CacheHourlyTable;
  error_hourly: ErrorHourlyTable;
  llm_usage_minute: LlmUsageMinuteTable;
  integration_minute: IntegrationMinuteTable;
  cache_minute: CacheMinuteTable;
  error_minute: ErrorMinuteTable;
  llm_latency_hourly: LlmLatencyHourlyTable;
  integration_latency_hourly: IntegrationLatencyHourlyTable;
  token_budgets: TokenBudgetsTable;
  model_prices: ModelPricesTable;
  otlp_ignored_spans: OtlpIgnoredSpansTable;
  llm_call_contents: LlmCallContentsTable;
}

/** A bigint column: PostgreSQL's driver reads it as a string (to keep 64-bit precision), SQLite as a number. */
export type Int8 = ColumnType<number | string, number, number>;
/** A raw event's 64-bit row id; never read by the API. */
type EventId = Generated<number | string>;

export interface ApiKeysTable {
  id: Generated<number>;
  name: string;
  prefix: string;
  /** SHA-256 (hex) of the key; the key itself is never stored. */
  key_hash: string;
  /** JSON array of scopes. */
  scopes: string;
  created_at: string;
  created_by: string | null;
  last_used_at: string | null;
  expires_at: string | null;
  revoked_at: string | null;
  /** 1 when the key's calls keep their content; the patterns redacted first, as JSON (migration 20261205090000-llm-call-content). */
  capture_content: Generated<number>;
  content_redactions: Generated<string>;
}
export type ApiKeyRow = Selectable<ApiKeysTable>;

interface RawEvent {
  id: EventId;
  /** The bot's id for the event, unique per type; null when it sent none. */
  client_id: string | null;
  ts: string;
}

export interface LlmCallsTable extends RawEvent {
  provider: string;
  model: string;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number;
  /** 1 when the cost came from the model price table rather than the bot. */
  cost_computed: number;
  /** 1 when Lumi could not price the call: its cost_usd is 0 (migration 20261203090000-llm-pricing). */
  unpriced: Generated<number>;
  /** 0 when the bot could not tell the call's token usage: its tokens are 0. */
  usage_known: Generated<number>;
  /** The API key that reported it, and the model that answered (migration 20261204090000-llm-call-explorer). */
  api_key_id: number | null;
  response_model: string | null;
  /** The call's row in llm_call_contents, when its key captured content. */
  content_id: string | null;
  latency_ms: number;
  cached: number;
  success: number;
  /** The dimensions (migration 20261127080000-llm-dimensions); null when the bot sent none. */
  chat_id: string | null;
  user_id: string | null;
  feature: string | null;
  error_type: string | null;
}

/** A call's prompt and completion (docs/operators/metrics.md, "Content of calls"); each side a JSON array of {role, text}. */
export interface LlmCallContentsTable {
  id: string;
  /** The call's time: retention deletes content by it. */
  ts: string;
  prompt: string;
  completion: string;
  truncated: number;
  redactions: number;
}

export interface IntegrationCallsTable extends RawEvent {
  service_name: string;
  status: string;
  latency_ms: number;
  error: string | null;
}

export interface CacheReportsTable extends RawEvent {
  hits: number;
  misses: number;
  entries: number;
  avg_response_time_cached_ms: number;
  avg_response_time_uncached_ms: number;
}

export interface HeartbeatsTable extends RawEvent {
  telegram_status: string;
  started_at: string;
  /** JSON array of {name, holder, since}. */
  active_locks: string;
}

export interface BotErrorsTable extends RawEvent {
  source: string;
  message: string;
}

/** Reactions and scores of the bot's messages (migration 20261202100000-feedback). */
export interface FeedbackEventsTable {
  id: Generated<number>;
  client_id: string | null;
  ts: string;
  chat_id: string;
  message_id: ColumnType<string | number, number, number>;
  user_id: string | null;
  reaction: string | null;
  score: number | null;
  template: string | null;
  feature: string | null;
  config_revision: string | null;
}

export interface MarketDataReportsTable extends RawEvent {
  last_candle_time: string;
  websocket_status: string;
  missing_intervals: number;
}

export interface LlmUsageHourlyTable {
  hour: string;
  provider: string;
  model: string;
  requests: Int8;
  failed_requests: Int8;
  cached_requests: Int8;
  input_tokens: Int8;
  output_tokens: Int8;
  cost_usd: number;
  latency_ms_total: number;
  last_call_at: string;
  /** Calls of the bucket Lumi could not price (migration 20261203090000-llm-pricing). */
  unpriced_requests: Generated<Int8>;
}

export interface IntegrationHourlyTable {
  hour: string;
  service_name: string;
  total_calls: Int8;
  success_count: Int8;
  error_count: Int8;
  latency_ms_total: number;
  last_call_at: string;
  last_status: string;
}

export interface CacheHourlyTable {
  hour: string;
  reports: Int8;
  hits: Int8;
  misses: Int8;
  cached_ms_total: number;
  uncached_ms_total: number;
}

export interface ErrorHourlyTable {
  hour: string;
  source: string;
  errors: Int8;
}

/**
 * The minute twins of the hourly rollups (migration 20261126080000-minute-rollups): the same sums keyed by
 * the minute, kept two days, read by the alert rules' windows.
 */
export interface LlmUsageMinuteTable extends Omit<LlmUsageHourlyTable, 'hour'> {
  minute: string;
}

export interface IntegrationMinuteTable extends Omit<IntegrationHourlyTable, 'hour'> {
  minute: string;
}

export interface CacheMinuteTable extends Omit<CacheHourlyTable, 'hour'> {
  minute: string;
}

export interface ErrorMinuteTable extends Omit<ErrorHourlyTable, 'hour'> {
  minute: string;
}

/**
 * Latency histograms per hour (migration 20261127090000-latency-histograms): one row per key and non-empty
 * bucket of lib/latency-buckets.ts, counting the calls whose latency fell in it.
 */
export interface LlmLatencyHourlyTable {
  hour: string;
  provider: string;
  model: string;
  bucket: number;
  count: Int8;
}

export interface IntegrationLatencyHourlyTable {
  hour: string;
  service_name: string;
  bucket: number;
  count: Int8;
}

export interface TokenBudgetsTable {
  provider: string;
  daily_token_limit: Int8 | null;
  daily_cost_limit: number | null;
  is_active: number;
  created_at: string;
  updated_at: string;
  updated_by: string | null;
}

export interface ModelPricesTable {
  model: string;
  input_usd_per_million: number;
  output_usd_per_million: number;
  updated_at: string;
  updated_by: string | null;
}

/** The latest spans of an API key's OTLP exports that were not stored, and why (docs/bot-developers/otlp.md). */
export interface OtlpIgnoredSpansTable {
  id: Generated<number>;
  api_key_id: number;
  received_at: string;
  trace_id: string;
  span_id: string;
  span_name: string;
  reason: string;
}
