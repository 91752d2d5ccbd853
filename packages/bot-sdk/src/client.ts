import type { LocalAllowance } from './allowance/decide.js';
import { LumiLimits } from './allowance/lumi-limits.js';
import { LumiConfig } from './config.js';
import { ContextStore, type LumiContext } from './context.js';
import { sendDelivery, type SendInput, type SendOptions } from './deliveries.js';
import {
  cacheStatsEvent,
  errorEvent,
  feedbackEvent,
  heartbeatEvent,
  integrationCallEvent,
  llmCallEvent,
  marketDataEvent,
  type Attribution,
  type CacheStatsInput,
  type ErrorOptions,
  type FeedbackInput,
  type HeartbeatInput,
  type IntegrationCallInput,
  type LlmCallInput,
  type MarketDataInput,
  type TelegramId,
} from './events.js';
import {
  grammyPlugin,
  type GrammyContextLike,
  type GrammyOptions,
  type LumiGrammyMiddleware,
} from './grammy.js';
import { LumiError, requestJson, type HttpOptions } from './http.js';
import { wrapGoogleGenAI, type GoogleGenAILike } from './llm/google-genai.js';
import { wrapOpenAI, type OpenAILike } from './llm/openai.js';
import type { LlmReporting, WrapOptions } from './llm/report.js';
import { setUpOtel, type LumiOtel, type OtelOptions } from './otel.js';
import type { LumiOptions, LumiStats } from './options.js';
import { EventQueue } from './queue.js';
import type { BudgetStatus, Delivery, IngestResult, TelemetryEvent } from './wire.js';

/** The client `createLumi` returns. Every reporting method returns at once and never throws. */
export class Lumi {
  /** The bot configuration from Lumi (`GET /api/bot/config`). */
  readonly config: LumiConfig;
  /** The copy of Lumi's limits `allow()` decides from. */
  readonly limits: LumiLimits;
  readonly #options: LumiOptions;
  readonly #http: HttpOptions;
  readonly #queue: EventQueue;
  readonly #context = new ContextStore();
  #budgets: BudgetStatus[] = [];
  #heartbeat: ReturnType<typeof setInterval> | null = null;
  #startedAt: Date | null = null;
  #otel: LumiOtel[] = [];
  #lastProblem = '';

  constructor(options: LumiOptions) {
    if (!options.url || !options.apiKey) throw new Error('createLumi needs the url of Lumi and an apiKey');
    this.#options = options;
    this.#http = {
      baseUrl: options.url,
      apiKey: options.apiKey,
      fetch: options.fetch ?? ((input, init) => fetch(input, init)),
      timeoutMs: options.requestTimeoutMs ?? 10_000,
    };
    this.#queue = new EventQueue(options.queue ?? {}, {
      send: async (events) =>
        (await requestJson<IngestResult>(this.#http, 'POST', '/api/ingest/events', { body: { events } }))
          .body,
      onResult: (result, events) => this.#onResult(result, events),
      onProblem: (error, willRetry) => this.#onProblem(error, willRetry),
    });
    this.config = new LumiConfig(this.#http, options.config ?? {}, (error) => this.#tell(error));
    this.limits = new LumiLimits(this.#http, options.limits ?? {}, {
      report: (error) => this.#tell(error),
      context: () => this.#context.current(),
    });
  }

  /**
   * Sends a heartbeat now and every `heartbeatSeconds`, and refreshes the configuration (and, with `limits`
   * set, the limits) in the background.
   */
  start(): this {
    if (this.#heartbeat) return this;
    this.#startedAt = new Date();
    this.heartbeat();
    this.#heartbeat = setInterval(() => this.heartbeat(), (this.#options.heartbeatSeconds ?? 30) * 1000);
    this.#heartbeat.unref?.();
    this.config.start();
    if (this.#options.limits) this.limits.start();
    return this;
  }

  /** Sends what is queued, waiting at most `timeoutMs`; resolves with how many events are still waiting. */
  flush(timeoutMs = 5000): Promise<number> {
    return this.#queue.flush(timeoutMs);
  }

  /** Stops heartbeats and refreshes, sends what is queued (at most `timeoutMs`) and the spans of `otel()`. */
  async close(timeoutMs = 5000): Promise<number> {
    if (this.#heartbeat) clearInterval(this.#heartbeat);
    this.#heartbeat = null;
    this.config.stop();
    this.limits.stop();
    await Promise.all(this.#otel.map((otel) => otel.shutdown().catch((error: Error) => this.#tell(error))));
    return this.#queue.close(timeoutMs);
  }

  /** Counts of what was sent, refused, dropped and still waiting, and the last budgets. */
  stats(): LumiStats {
    return { ...this.#queue.stats(), budgets: this.#budgets };
  }

  /** Whether Lumi's last answer said today's budget of `provider` is used up. */
  budgetExceeded(provider: string): boolean {
    return this.#budgets.some((budget) => budget.provider === provider && budget.exceeded);
  }

  // Context: who and what the work in progress is for.

  /** Runs `fn` with these fields on top of the current context (chat, user, feature). */
  withContext<T>(context: LumiContext, fn: () => T): T {
    return this.#context.run(context, fn);
  }

  /** The chat, user and feature of the code running now. */
  context(): Readonly<LumiContext> {
    return this.#context.current();
  }

  /** Names the feature of the current context from here on (inside an update handler, say). */
  setFeature(feature: string | undefined): void {
    this.#context.setFeature(feature);
  }

  // One method per ingestion event type.

  llmCall(input: LlmCallInput): void {
    const context = this.#context.current();
    this.#push(() =>
      llmCallEvent({
        ...input,
        chatId: input.chatId ?? context.chatId,
        userId: input.userId ?? context.userId,
        feature: input.feature ?? context.feature,
      }),
    );
  }

  integrationCall(
    input: IntegrationCallInput & { chatId?: TelegramId; userId?: TelegramId; updateType?: string },
  ): void {
    this.#push(() => integrationCallEvent(input));
  }

  /** Runs `fn`, timing it, and reports it as a call of `serviceName` (`error` when it throws); returns its result. */
  async timeIntegration<T>(serviceName: string, fn: () => Promise<T> | T): Promise<T> {
    const started = performance.now();
    try {
      const result = await fn();
      this.integrationCall({ serviceName, status: 'success', latencyMs: performance.now() - started });
      return result;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.integrationCall({
        serviceName,
        status: 'error',
        latencyMs: performance.now() - started,
        error: message,
      });
      throw error;
    }
  }

  cacheStats(input: CacheStatsInput): void {
    this.#push(() => cacheStatsEvent(input));
  }

  /** One heartbeat now (`start()` sends them on its own). */
  heartbeat(input: Partial<HeartbeatInput> = {}): void {
    this.#push(() =>
      heartbeatEvent({
        telegramStatus: input.telegramStatus ?? this.#options.telegramStatus?.() ?? 'connected',
        startedAt: input.startedAt ?? this.#startedAt ?? new Date(),
        activeLocks: input.activeLocks ?? this.#options.activeLocks?.() ?? [],
        id: input.id,
        ts: input.ts,
      }),
    );
  }

  /** Reports something thrown; the chat, user and feature come from the current context unless given. */
  error(error: unknown, options: ErrorOptions = {}): void {
    const context = this.#context.current();
    this.#push(() =>
      errorEvent(error, {
        ...options,
        chatId: options.chatId ?? context.chatId,
        userId: options.userId ?? context.userId,
        feature: options.feature ?? context.feature,
        defaultSource: this.#options.errorSource ?? 'bot',
      }),
    );
  }

  marketData(input: MarketDataInput): void {
    this.#push(() => marketDataEvent(input));
  }

  /** A user's reaction to, or score of, one of the bot's messages (event type `feedback`). */
  feedback(input: FeedbackInput): void {
    this.#push(() => {
      const event = feedbackEvent({
        ...input,
        configRevision: input.configRevision ?? this.config.version ?? undefined,
      });
      if (typeof event === 'string') throw new Error(event);
      return event;
    });
  }

  // Limits.

  /**
   * May this chat, user and feature make an LLM call now? Decided at once from the local copy of Lumi's
   * limits (docs/bot-developers/limits.md); chat, user and feature default to the current context. An
   * allowed check counts as one request.
   */
  allow(input?: Attribution): LocalAllowance {
    return this.limits.allow(input);
  }

  /** Lumi's exact decision (`POST /api/bot/allowance`); `unavailable` as `onUnavailable` says when unreachable. */
  allowance(input?: Attribution): Promise<LocalAllowance> {
    return this.limits.allowance(input);
  }

  // Deliveries.

  /** Queues a message made from a Lumi template; resolves with the delivery, rejects with DeliveryRefused or LumiError. */
  send(input: SendInput, options?: SendOptions): Promise<Delivery> {
    return sendDelivery(this.#http, input, options);
  }

  // Automatic reporting.

  /** Reports every call of an `openai` client (changed in place and returned). */
  openai<T extends OpenAILike>(client: T, options?: WrapOptions): T {
    return wrapOpenAI(client, this.#reporting(), options);
  }

  /** Reports every call of a `@google/genai` client (changed in place and returned). */
  googleGenAI<T extends GoogleGenAILike>(client: T, options?: WrapOptions): T {
    return wrapGoogleGenAI(client, this.#reporting(), options);
  }

  /** Sets up OpenTelemetry export of spans to Lumi (the @opentelemetry/* packages are optional peers). */
  async otel(options?: OtelOptions): Promise<LumiOtel> {
    const otel = await setUpOtel(
      { url: this.#options.url, apiKey: this.#options.apiKey },
      () => this.context(),
      options,
    );
    this.#otel.push(otel);
    return otel;
  }

  /** The grammY plugin: `bot.use(lumi.grammy())`. */
  grammy<C extends GrammyContextLike>(options?: GrammyOptions<C>): LumiGrammyMiddleware<C> {
    return grammyPlugin<Lumi, C>(
      {
        client: this,
        context: this.#context,
        integrationCall: (input) => this.integrationCall(input),
        error: (error, errorOptions) => this.error(error, errorOptions),
        feedback: (input) => this.feedback(input),
        configVersion: () => this.config.version,
        allow: () => this.allow(),
      },
      options,
    );
  }

  #reporting(): LlmReporting {
    return { report: (call) => this.llmCall(call), context: () => this.#context.current() };
  }

  /** Makes the event and queues it; a mistake in the input is told, never thrown. */
  #push(make: () => TelemetryEvent) {
    try {
      this.#queue.push(make());
    } catch (error) {
      this.#tell(error as Error);
    }
  }

  #onResult(result: IngestResult, events: TelemetryEvent[]) {
    this.#budgets = result.budgets;
    for (const { index, detail } of result.rejected.slice(0, 3)) {
      this.#tell(new LumiError(`Lumi refused a ${events[index]?.type ?? ''} event: ${detail}`, 200));
    }
  }

  #onProblem(error: LumiError | null, willRetry: boolean) {
    if (!error) {
      this.#tell(null);
      return;
    }
    const suffix = willRetry ? '; events are kept and sent again' : '; these events were dropped';
    this.#tell(new LumiError(`${error.message}${suffix}`, error.status, error.retryAfterMs, error.body));
  }

  /** Tells onError, once per problem in a row: a long outage is one line, not one per retry. */
  #tell(error: Error | null) {
    if (!error) {
      this.#lastProblem = '';
      return;
    }
    const key = error instanceof LumiError ? `${error.status}:${error.message}` : error.message;
    if (key === this.#lastProblem) return;
    this.#lastProblem = key;
    try {
      (this.#options.onError ?? ((e: Error) => console.warn(`[lumi] ${e.message}`)))(error);
    } catch {
      // onError's own mistake is not the bot's problem.
    }
  }
}

/** The client that connects a bot to Lumi. */
export function createLumi(options: LumiOptions): Lumi {
  return new Lumi(options);
}
