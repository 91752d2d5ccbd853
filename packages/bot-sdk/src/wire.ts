/**
 * What travels between the bot and Lumi, in the HTTP APIs' own (snake_case) field names: the ingestion
 * events (`POST /api/ingest/events`, docs/bot-developers/ingestion.md), the bot configuration
 * (`GET /api/bot/config`), deliveries (`POST /api/v1/messaging/deliveries`) and the allowance with the
 * copy of the limits the SDK decides from (docs/bot-developers/limits.md). Written out here so the
 * published package stands alone; test/contract.test.ts checks every type against @lumi/contract, the
 * schemas the server validates with.
 */

/** Set on every event by the SDK: `id` and `ts` make a retried event a duplicate, never a second event. */
interface WireCommon {
  id: string;
  /** ISO 8601 with `Z`. */
  ts: string;
}

/** Telegram chat and user ids travel as strings: JSON numbers lose digits past 2^53. */
export type TelegramIdText = string;

export interface LlmCallEvent extends WireCommon {
  type: 'llm_call';
  provider: string;
  model: string;
  input_tokens: number;
  output_tokens: number;
  cost_usd?: number;
  latency_ms: number;
  cached: boolean;
  success: boolean;
  chat_id?: TelegramIdText;
  user_id?: TelegramIdText;
  feature?: string;
  error_type?: string;
  /** The model the provider answered with, when it names it more exactly than `model` (a dated name). */
  response_model?: string;
  /** Of input_tokens, those read from and written to the provider's prompt cache (priced apart). */
  cache_read_tokens?: number;
  cache_write_tokens?: number;
  /** false when the call's token usage is not known: it counts, and is flagged as unpriced. */
  usage_known?: boolean;
  /** The prompt and completion: kept only when the key captures content (an admin turns it on per key). */
  prompt?: ContentSide;
  completion?: ContentSide;
}

/** One side of a call's content: text, or chat messages. */
export type ContentSide = string | Array<{ role: string; content: string }>;

export type IntegrationStatus = 'success' | 'error' | 'other';

export interface IntegrationCallEvent extends WireCommon {
  type: 'integration_call';
  service_name: string;
  status: IntegrationStatus;
  latency_ms: number;
  error?: string;
  /** Not stored by today's server (fields it does not know are ignored); sent for the updates the grammY plugin reports. */
  chat_id?: TelegramIdText;
  user_id?: TelegramIdText;
  update_type?: string;
}

export interface CacheStatsEvent extends WireCommon {
  type: 'cache_stats';
  hits: number;
  misses: number;
  entries: number;
  avg_response_time_cached_ms: number;
  avg_response_time_uncached_ms: number;
}

export interface ActiveLock {
  name: string;
  holder: string;
  /** ISO 8601. */
  since: string;
}

export interface HeartbeatEvent extends WireCommon {
  type: 'heartbeat';
  telegram_status: string;
  started_at: string;
  active_locks: ActiveLock[];
}

export interface ErrorEvent extends WireCommon {
  type: 'error';
  source: string;
  message: string;
  /** Not stored by today's server (ignored); sent so a later one can count errors per chat and feature. */
  chat_id?: TelegramIdText;
  user_id?: TelegramIdText;
  feature?: string;
  error_type?: string;
}

export interface MarketDataEvent extends WireCommon {
  type: 'market_data';
  last_candle_time: string;
  websocket_status: string;
  missing_intervals: number;
}

/**
 * A user's reaction to (or score of) one of the bot's messages. A server older than the type rejects these
 * events alone (listed in the answer's `rejected`) and stores the rest.
 */
export interface FeedbackEvent extends WireCommon {
  type: 'feedback';
  chat_id: TelegramIdText;
  message_id: number;
  user_id?: TelegramIdText;
  /** An emoji (`"👍"`), `"custom:<custom_emoji_id>"` or `"paid"`. */
  reaction?: string;
  /** -1 to 5. */
  score?: number;
  template?: string;
  feature?: string;
  config_revision?: string;
}

export type TelemetryEvent =
  | LlmCallEvent
  | IntegrationCallEvent
  | CacheStatsEvent
  | HeartbeatEvent
  | ErrorEvent
  | MarketDataEvent
  | FeedbackEvent;

export interface BudgetStatus {
  provider: string;
  usage_percentage: number;
  /** Today's usage has reached the limit: stop calling this provider until tomorrow. */
  exceeded: boolean;
}

/** The answer to `POST /api/ingest/events`. */
export interface IngestResult {
  accepted: number;
  duplicates: number;
  rejected: Array<{ index: number; detail: string }>;
  budgets: BudgetStatus[];
}

export const CONFIG_DOMAINS = [
  'personalities',
  'feature-flags',
  'quirks',
  'moods',
  'catchphrases',
  'memories',
  'response-styles',
  'tasks',
] as const;
export type ConfigDomain = (typeof CONFIG_DOMAINS)[number];

export interface BotConfigItem {
  id: number;
  name: string;
  description: string;
  /** A JSON object or plain text, as the operator wrote it. */
  content: Record<string, unknown> | string;
  tags: string[];
  /** 1 to 10; items come highest first. */
  priority: number;
  version: number;
}

/** `GET /api/bot/config`: every active item grouped by domain, highest priority first. */
export interface BotConfig {
  /** Changes whenever an item does (also the ETag). */
  version: string;
  domains: Partial<Record<ConfigDomain, BotConfigItem[]>>;
}

export interface DeliveryRequest {
  template_id?: number;
  template_name?: string;
  data?: Record<string, unknown>;
  channel_id?: number | null;
  topic_id?: number | null;
  idempotency_key?: string;
  send_at?: string;
}

export type DeliveryStatus = 'queued' | 'sending' | 'sent' | 'failed' | 'cancelled' | 'unknown' | 'refused';

/** A delivery as Lumi answers it. */
export interface Delivery {
  id: number;
  status: DeliveryStatus;
  source: 'user' | 'api_key' | 'schedule' | 'alert';
  requested_by: string | null;
  template_id: number;
  template_name: string;
  template_version: number;
  schedule_id: number | null;
  channel_id: number;
  channel_name: string;
  chat_id: string;
  topic_id: number | null;
  topic_name: string | null;
  message_thread_id: number | null;
  text: string;
  parse_mode: 'HTML' | 'MarkdownV2' | 'Markdown';
  disable_web_preview: boolean;
  disable_notification: boolean;
  pin: boolean;
  /** A long text from a template that splits it: how many messages it goes out as, and how many were sent; null when sent whole. */
  parts: number | null;
  parts_sent: number | null;
  idempotency_key: string | null;
  send_at: string;
  attempts: number;
  next_attempt_at: string | null;
  telegram_message_id: number | null;
  pinned: boolean;
  error: string | null;
  created_at: string;
  updated_at: string;
  sent_at: string | null;
}

export type LimitScope = 'chat' | 'user' | 'feature' | 'each_chat' | 'each_user';
export type LimitMetric = 'cost_usd' | 'tokens' | 'requests';
/** The current calendar minute or hour (UTC), or day or month (in the snapshot's `timezone`). */
export type LimitWindow = 'minute' | 'hour' | 'day' | 'month';
export type LimitMode = 'soft' | 'hard';

/** Why the allowance decided as it did. */
export const ALLOWANCE_REASONS = [
  'no_limits',
  'within_limits',
  'over_soft_limit',
  'allowlisted',
  'banned',
  'limit_reached',
] as const;
export type AllowanceReason = (typeof ALLOWANCE_REASONS)[number];

/** `POST /api/bot/allowance`: the call's chat, user and feature; each may be left out. */
export interface AllowanceRequest {
  chat_id?: TelegramIdText;
  user_id?: TelegramIdText;
  feature?: string;
}

/** The limit a decision names: the one that denied, else the one closest to its amount. */
export interface AllowanceLimit {
  id: number;
  scope: LimitScope;
  /** The chat id, user id or feature it was applied to. */
  subject: string;
  metric: LimitMetric;
  window: LimitWindow;
  mode: LimitMode;
  amount: number;
  used: number;
}

/** Lumi's answer to `POST /api/bot/allowance`. */
export interface Allowance {
  allowed: boolean;
  reason: AllowanceReason;
  limit: AllowanceLimit | null;
  /** What is left of `limit` in its window (never below 0); null without a limit. */
  remaining: number | null;
  /** For a denial: when asking again can succeed (the window's end, a ban's expiry); null: not by waiting. */
  retry_after_seconds: number | null;
}

/** `GET /api/bot/limits`: every limit with the amount in force, and the bans and allowlist entries in force. */
export interface BotLimitsSnapshot {
  limits: Array<{
    id: number;
    scope: LimitScope;
    /** Null for each_chat and each_user. */
    subject: string | null;
    metric: LimitMetric;
    window: LimitWindow;
    mode: LimitMode;
    /** The amount in force (a raise's while it lasts) and, when a raise ends, until when. */
    amount: number;
    amount_until: string | null;
  }>;
  rules: Array<{
    action: 'ban' | 'allow';
    subject_kind: 'chat' | 'user';
    subject: string;
    /** Null: until deleted. */
    expires_at: string | null;
  }>;
  /** LUMI_TIMEZONE: where days and months begin. */
  timezone: string;
  server_time: string;
}

/** `POST /api/bot/allowance/usage`: at most 500 of each. */
export interface BotUsageRequest {
  chat_ids?: TelegramIdText[];
  user_ids?: TelegramIdText[];
  features?: string[];
}

/** Each limit that applies to the subjects asked about, with its usage in the current window. */
export interface BotUsageResponse {
  usage: Array<{
    limit_id: number;
    subject: string;
    used: number;
    amount: number;
    window_start: string;
    window_end: string;
  }>;
  server_time: string;
}
