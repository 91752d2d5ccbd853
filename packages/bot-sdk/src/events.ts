import { randomBytes } from 'node:crypto';
import type {
  ActiveLock,
  CacheStatsEvent,
  ErrorEvent,
  FeedbackEvent,
  HeartbeatEvent,
  IntegrationCallEvent,
  IntegrationStatus,
  ContentSide,
  LlmCallEvent,
  MarketDataEvent,
  TelegramIdText,
} from './wire.js';

/**
 * The SDK's side of each ingestion event: the API's field names in camelCase. Every input may carry its
 * own `id` (else a random one) and `ts` (else now); both are fixed when the event is made, so a retry
 * resends the very same event and Lumi stores it once.
 */

/** A Telegram chat or user id as grammY and the Bot API give it (a number), or as text. */
export type TelegramId = number | bigint | string;

export interface EventBase {
  /** Your own id for the event (at most 200 characters); a random UUID when left out. */
  id?: string;
  /** When it happened; now when left out. */
  ts?: Date | string;
}

/** Who and what an LLM call (or an error) was for; filled from the current context when left out. */
export interface Attribution {
  chatId?: TelegramId;
  userId?: TelegramId;
  /** The bot's name for the kind of work: "reply", "digest", "summarize" (at most 64 characters). */
  feature?: string;
}

export interface LlmCallInput extends EventBase, Attribution {
  provider: string;
  model: string;
  inputTokens: number;
  outputTokens: number;
  /** Left out, Lumi prices the call from its model price table. */
  costUsd?: number;
  latencyMs: number;
  /** The answer came from the bot's own cache; false by default. */
  cached?: boolean;
  /** true by default. */
  success?: boolean;
  /** Why a failed call failed ("timeout", "rate_limited"; at most 100 characters). */
  errorType?: string;
  /** false when the answer told no token usage (a stream without it): Lumi flags the call as unpriced. */
  usageKnown?: boolean;
  /**
   * The prompt and the completion, as text or chat messages. Lumi keeps them only when the API key captures
   * content (off by default; docs/bot-developers/ingestion.md, "Content of calls").
   */
  prompt?: ContentSide;
  completion?: ContentSide;
}

export interface IntegrationCallInput extends EventBase {
  serviceName: string;
  status: IntegrationStatus;
  latencyMs: number;
  error?: string;
}

export interface CacheStatsInput extends EventBase {
  /** Since the previous report. */
  hits: number;
  /** Since the previous report. */
  misses: number;
  entries: number;
  avgResponseTimeCachedMs: number;
  avgResponseTimeUncachedMs: number;
}

export interface HeartbeatInput extends EventBase {
  telegramStatus: string;
  startedAt: Date | string;
  activeLocks?: Array<{ name: string; holder: string; since: Date | string }>;
}

export interface ErrorOptions extends EventBase, Attribution {
  /** Where it happened (the errors panel groups by it); the feature, else the client's `errorSource`. */
  source?: string;
}

export interface MarketDataInput extends EventBase {
  lastCandleTime: Date | string;
  websocketStatus: string;
  /** How many candle intervals the feed is missing. */
  missingIntervals: number;
}

/** Give `reaction`, `score` or both. */
export interface FeedbackInput extends EventBase {
  chatId: TelegramId;
  messageId: number;
  /** Who gave it; left out for an anonymous reaction. */
  userId?: TelegramId;
  /** An emoji (`"👍"`), `"custom:<custom_emoji_id>"` or `"paid"` (at most 32 characters). */
  reaction?: string;
  /** On the bot's own scale: -1 (thumbs down) to 5 (stars). */
  score?: number;
  /** The Lumi template the message was made from, if any. */
  template?: string;
  feature?: string;
  /** The configuration version (`lumi.config.version`) the message was written under. */
  configRevision?: string;
}

/** Limits of the ingestion API (packages/contract/src/telemetry/events.ts), kept so no event is refused for them. */
export const FIELD_LIMITS = {
  feature: 64,
  errorType: 100,
  source: 100,
  message: 4000,
  error: 2000,
  reaction: 32,
  template: 200,
  revision: 64,
} as const;

/** Half of a UTF-16 pair without the other half becomes U+FFFD, as ES2024's String#toWellFormed does. */
const wellFormed = (text: string) =>
  text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');

/**
 * Text as Lumi stores it: without the control characters it refuses (all but tab, line feed and carriage
 * return) and lone UTF-16 halves, at most `max` characters.
 */
export function cleanText(text: string, max: number): string {
  // eslint-disable-next-line no-control-regex
  const cleaned = wellFormed(text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g, ' '));
  return cleaned.length <= max ? cleaned : `${cleaned.slice(0, max - 1)}…`;
}

/** A name shown on a dashboard (feature, error type): one printable line, trimmed, or nothing when blank. */
export function cleanName(text: string | undefined, max: number): string | undefined {
  if (text === undefined) return undefined;
  const line = wellFormed(text.replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, ' ')).trim();
  return line ? line.slice(0, max).trim() : undefined;
}

/** A Telegram id in the form Lumi keys chats by ("-1001234567890"), or nothing when it is not one. */
export function telegramId(id: TelegramId | undefined): TelegramIdText | undefined {
  if (id === undefined || id === null) return undefined;
  const text = String(id).trim();
  return /^(0|-?[1-9]\d{0,19})$/.test(text) ? text : undefined;
}

const isoTime = (time: Date | string | undefined): string =>
  time === undefined ? new Date().toISOString() : typeof time === 'string' ? time : time.toISOString();

/**
 * An event's id when the bot gives none: a UUIDv7 (RFC 9562, section 5.7), the time in milliseconds and then
 * random bits. Ids made one after another sort together, so Lumi's index of the ids it has stored (the
 * duplicates check, docs/bot-developers/ingestion.md) grows at its end instead of on a random page per event.
 */
export function timeOrderedId(now: number = Date.now()): string {
  const bytes = randomBytes(16);
  bytes.writeUIntBE(now, 0, 6);
  bytes[6] = (bytes[6]! & 0x0f) | 0x70;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const common = (input: EventBase) => ({ id: input.id ?? timeOrderedId(), ts: isoTime(input.ts) });

/**
 * The event of `type` with its `id` and `ts` and the `fields` that are not undefined, so the JSON is what
 * the docs show.
 */
function wireEvent<T extends { type: string }>(
  type: T['type'],
  input: EventBase,
  fields: Omit<T, 'type' | 'id' | 'ts'>,
): T {
  const event = { type, ...common(input), ...fields } as unknown as T;
  for (const key of Object.keys(event) as Array<keyof T>) if (event[key] === undefined) delete event[key];
  return event;
}

/** A count or a duration as the API takes it: a whole number, 0 or more. */
const wholeCount = (n: number) => Math.max(0, Math.round(n));

/** The chat and user an event is for, in the form Lumi keys them by. */
const attribution = (input: { chatId?: TelegramId; userId?: TelegramId }) => ({
  chat_id: telegramId(input.chatId),
  user_id: telegramId(input.userId),
});

export function llmCallEvent(input: LlmCallInput): LlmCallEvent {
  const success = input.success ?? true;
  return wireEvent<LlmCallEvent>('llm_call', input, {
    provider: input.provider,
    model: input.model,
    input_tokens: wholeCount(input.inputTokens),
    output_tokens: wholeCount(input.outputTokens),
    cost_usd: input.costUsd,
    latency_ms: wholeCount(input.latencyMs),
    cached: input.cached ?? false,
    success,
    ...attribution(input),
    feature: cleanName(input.feature, FIELD_LIMITS.feature),
    error_type: cleanName(input.errorType, FIELD_LIMITS.errorType),
    usage_known: input.usageKnown === false ? false : undefined,
    prompt: input.prompt,
    completion: input.completion,
  });
}

export function integrationCallEvent(
  input: IntegrationCallInput & { chatId?: TelegramId; userId?: TelegramId; updateType?: string },
): IntegrationCallEvent {
  return wireEvent<IntegrationCallEvent>('integration_call', input, {
    service_name: input.serviceName,
    status: input.status,
    latency_ms: wholeCount(input.latencyMs),
    error: input.error === undefined ? undefined : cleanText(input.error, FIELD_LIMITS.error),
    ...attribution(input),
    update_type: input.updateType,
  });
}

export function cacheStatsEvent(input: CacheStatsInput): CacheStatsEvent {
  return {
    type: 'cache_stats',
    ...common(input),
    hits: input.hits,
    misses: input.misses,
    entries: input.entries,
    avg_response_time_cached_ms: input.avgResponseTimeCachedMs,
    avg_response_time_uncached_ms: input.avgResponseTimeUncachedMs,
  };
}

export function heartbeatEvent(input: HeartbeatInput): HeartbeatEvent {
  const locks: ActiveLock[] = (input.activeLocks ?? []).map((lock) => ({
    name: lock.name,
    holder: lock.holder,
    since: isoTime(lock.since),
  }));
  return {
    type: 'heartbeat',
    ...common(input),
    telegram_status: input.telegramStatus,
    started_at: isoTime(input.startedAt),
    active_locks: locks,
  };
}

/** The text of anything thrown: `Name: message`, with the stack's first frames when there is one. */
export function describeError(error: unknown): { message: string; name?: string } {
  if (!(error instanceof Error)) return { message: typeof error === 'string' ? error : String(error) };
  const head = error.message.startsWith(error.name) ? error.message : `${error.name}: ${error.message}`;
  const frames = (error.stack ?? '')
    .split('\n')
    .filter((line) => line.trimStart().startsWith('at '))
    .slice(0, 8);
  return { message: [head, ...frames].join('\n'), name: error.name };
}

export function errorEvent(error: unknown, options: ErrorOptions & { defaultSource: string }): ErrorEvent {
  const { message, name } = describeError(error);
  const feature = cleanName(options.feature, FIELD_LIMITS.feature);
  return wireEvent<ErrorEvent>('error', options, {
    source: cleanName(options.source ?? feature ?? options.defaultSource, FIELD_LIMITS.source) ?? 'bot',
    message: cleanText(message, FIELD_LIMITS.message),
    ...attribution(options),
    feature,
    error_type: cleanName(name, FIELD_LIMITS.errorType),
  });
}

export function marketDataEvent(input: MarketDataInput): MarketDataEvent {
  return {
    type: 'market_data',
    ...common(input),
    last_candle_time: isoTime(input.lastCandleTime),
    websocket_status: input.websocketStatus,
    missing_intervals: input.missingIntervals,
  };
}

/** A feedback event, or a reason it cannot be one. */
export function feedbackEvent(input: FeedbackInput): FeedbackEvent | string {
  const chatId = telegramId(input.chatId);
  if (!chatId) return 'feedback needs the chatId of a Telegram chat';
  if (!Number.isSafeInteger(input.messageId) || input.messageId < 1) {
    return 'feedback needs the messageId of the rated message';
  }
  const reaction = cleanName(input.reaction, FIELD_LIMITS.reaction);
  if (reaction === undefined && input.score === undefined) return 'feedback needs a reaction or a score';
  if (input.score !== undefined && !(input.score >= -1 && input.score <= 5)) {
    return 'feedback scores go from -1 to 5';
  }
  return wireEvent<FeedbackEvent>('feedback', input, {
    chat_id: chatId,
    message_id: input.messageId,
    user_id: telegramId(input.userId),
    reaction,
    score: input.score,
    template: cleanName(input.template, FIELD_LIMITS.template),
    feature: cleanName(input.feature, FIELD_LIMITS.feature),
    config_revision: cleanName(input.configRevision, FIELD_LIMITS.revision),
  });
}
