/**
 * @lumi/bot: connects a Telegram bot to Lumi in a few lines. See README.md, and
 * docs/bot-developers/connect-your-bot.md in the Lumi repository.
 */
export type { LocalAllowance } from './allowance/decide.js';
export { LIMITS_DEFAULTS, type LimitsOptions, type LimitsStats } from './allowance/limits-options.js';
export { LumiLimits } from './allowance/lumi-limits.js';
export { createLumi, Lumi } from './client.js';
export type { LumiOptions, LumiStats } from './options.js';
export { LumiConfig, type ConfigListener, type ConfigOptions } from './config.js';
export type { LumiContext } from './context.js';
export { DeliveryRefused, type SendInput, type SendOptions } from './deliveries.js';
export type {
  Attribution,
  CacheStatsInput,
  ErrorOptions,
  EventBase,
  FeedbackInput,
  HeartbeatInput,
  IntegrationCallInput,
  LlmCallInput,
  MarketDataInput,
  TelegramId,
} from './events.js';
export type { GrammyContextLike, GrammyOptions, LumiFlavor, LumiGrammyMiddleware } from './grammy.js';
export { LumiError, type FetchLike } from './http.js';
export type { GoogleGenAILike } from './llm/google-genai.js';
export type { OpenAILike } from './llm/openai.js';
export type { WrapOptions } from './llm/report.js';
export type { LumiOtel, OtelOptions } from './otel.js';
export { QUEUE_DEFAULTS, type QueueOptions, type QueueStats } from './queue.js';
export { ALLOWANCE_REASONS, CONFIG_DOMAINS } from './wire.js';
export type {
  ActiveLock,
  Allowance,
  AllowanceLimit,
  AllowanceReason,
  AllowanceRequest,
  BotConfig,
  BotConfigItem,
  BotLimitsSnapshot,
  BotUsageRequest,
  BotUsageResponse,
  BudgetStatus,
  CacheStatsEvent,
  ConfigDomain,
  Delivery,
  DeliveryRequest,
  DeliveryStatus,
  ErrorEvent,
  FeedbackEvent,
  HeartbeatEvent,
  IngestResult,
  IntegrationCallEvent,
  IntegrationStatus,
  LimitMetric,
  LimitMode,
  LimitScope,
  LimitWindow,
  LlmCallEvent,
  MarketDataEvent,
  TelemetryEvent,
} from './wire.js';
