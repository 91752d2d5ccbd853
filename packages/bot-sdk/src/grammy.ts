import type { LocalAllowance } from './allowance/decide.js';
import type { ContextStore, LumiContext } from './context.js';
import type { ErrorOptions, FeedbackInput, IntegrationCallInput, TelegramId } from './events.js';

/**
 * The grammY plugin (https://grammy.dev/guide/middleware): `bot.use(lumi.grammy())`. For each update it
 *  - runs the rest of the middleware in a Lumi context holding the update's chat and user, so LLM calls,
 *    errors and spans from the handlers carry them, and puts the client on `ctx.lumi`;
 *  - reports the update once handled: an `integration_call` of service `telegram_updates` with the time
 *    the handlers took, `success` or `error` (and the chat, user and update type, for a server that keeps
 *    them);
 *  - reports a handler's error as an `error` event (source `grammy`) and throws it on to `bot.catch`;
 *  - turns `message_reaction` updates on the bot's own messages into `feedback` events. The bot's messages
 *    are the ones it sent through the Bot API while the plugin watched (the newest `rememberMessages`);
 *    Telegram sends these updates only when `allowed_updates` asks for `message_reaction` and, in groups,
 *    to administrators;
 *  - with `allowance`, checks the update's chat, user and feature with `lumi.allow()` before the handlers
 *    and, when denied, calls `onDenied` instead of them (docs/bot-developers/limits.md).
 * grammY itself is not imported: the plugin works with any grammY version's context.
 */

export interface GrammyOptions<C = never> {
  /** The feature of an update's work, from its context (a command name, say); a handler may change it with `ctx.lumi.setFeature`. */
  feature?: (ctx: C) => string | undefined;
  /** The service name the updates are reported under. Default "telegram_updates". */
  serviceName?: string;
  /** The `source` of handler errors. Default "grammy". */
  errorSource?: string;
  /** Reactions reported as feedback: on the bot's messages (default), on every message, or none. */
  reactions?: 'bot-messages' | 'all' | false;
  /** How many sent messages to remember for reactions. Default 10,000. */
  rememberMessages?: number;
  /**
   * Check `lumi.allow()` before the handlers of each update that leads to an LLM call; a denied update
   * goes to `onDenied` (to tell the user, say) and not to the handlers. Off by default.
   */
  allowance?: {
    /** Which updates to check. Default: every update. */
    when?: (ctx: C) => boolean;
    onDenied?: (ctx: C, allowance: LocalAllowance) => unknown;
  };
}

/** What a grammY context has that the plugin reads; a grammY `Context` has it all. */
export interface GrammyContextLike {
  update: { update_id: number };
}

/** Add to your context type: `type MyContext = Context & LumiFlavor<typeof lumi>`. */
export type LumiFlavor<L> = { lumi: L };

/** The client's parts the plugin uses. */
export interface GrammyDeps<L> {
  client: L;
  context: ContextStore;
  integrationCall(
    input: IntegrationCallInput & { chatId?: TelegramId; userId?: TelegramId; updateType?: string },
  ): void;
  error(error: unknown, options: ErrorOptions): void;
  feedback(input: FeedbackInput): void;
  configVersion(): string | null;
  /** `lumi.allow()` in the update's context. */
  allow(): LocalAllowance;
}

type ReactionType =
  { type: 'emoji'; emoji: string } | { type: 'custom_emoji'; custom_emoji_id: string } | { type: 'paid' };

interface ReactionUpdate {
  chat: { id: number };
  message_id: number;
  user?: { id: number };
  actor_chat?: { id: number };
  old_reaction: ReactionType[];
  new_reaction: ReactionType[];
}

type ApiResult = { ok: boolean; result?: unknown };
type Transformer = (
  prev: (method: string, payload: Record<string, unknown>, signal?: AbortSignal) => Promise<ApiResult>,
  method: string,
  payload: Record<string, unknown>,
  signal?: AbortSignal,
) => Promise<ApiResult>;

interface ContextInternals {
  update: { update_id: number; message_reaction?: ReactionUpdate } & Record<string, unknown>;
  chat?: { id: number };
  from?: { id: number };
  api?: { config?: { use(t: Transformer): unknown; installedTransformers?: (() => unknown[]) | unknown[] } };
  lumi?: unknown;
}

interface SentInfo {
  feature?: string;
  configRevision?: string;
}

/** The newest `limit` messages the bot sent, by chat and message id (a Map keeps insertion order). */
class SentMessages {
  readonly #entries = new Map<string, SentInfo>();
  constructor(private readonly limit: number) {}
  add(chatId: unknown, messageId: number, info: SentInfo) {
    const key = `${String(chatId)}:${messageId}`;
    this.#entries.delete(key);
    this.#entries.set(key, info);
    if (this.#entries.size > this.limit) this.#entries.delete(this.#entries.keys().next().value!);
  }
  get(chatId: number, messageId: number): SentInfo | undefined {
    return this.#entries.get(`${chatId}:${messageId}`);
  }
}

const reactionKey = (reaction: ReactionType): string =>
  reaction.type === 'emoji'
    ? reaction.emoji
    : reaction.type === 'custom_emoji'
      ? `custom:${reaction.custom_emoji_id}`
      : 'paid';

/** The middleware, with `transformer` for `bot.api.config.use(…)` to remember messages sent outside handlers too. */
export type LumiGrammyMiddleware<C> = ((ctx: C, next: () => Promise<void>) => Promise<void>) & {
  transformer: Transformer;
};

export function grammyPlugin<L, C extends GrammyContextLike>(
  deps: GrammyDeps<L>,
  options: GrammyOptions<C> = {},
): LumiGrammyMiddleware<C> {
  const sent = new SentMessages(options.rememberMessages ?? 10_000);
  const serviceName = options.serviceName ?? 'telegram_updates';
  const reactions = options.reactions ?? 'bot-messages';

  /** Remembers each message the Bot API says was sent, with the feature and configuration it was sent under. */
  const transformer: Transformer = async (prev, method, payload, signal) => {
    const answer = await prev(method, payload, signal);
    if (answer.ok && /^(send|copy|forward)/.test(method)) {
      const { feature } = deps.context.current();
      const info = { feature, configRevision: deps.configVersion() ?? undefined };
      for (const message of [answer.result].flat() as Array<{ message_id?: number; chat?: { id: number } }>) {
        if (typeof message?.message_id === 'number')
          sent.add(message.chat?.id ?? payload.chat_id, message.message_id, info);
      }
    }
    return answer;
  };

  const reportReactions = (update: ReactionUpdate) => {
    if (!reactions) return;
    const remembered = sent.get(update.chat.id, update.message_id);
    if (reactions === 'bot-messages' && !remembered) return;
    const before = new Set(update.old_reaction.map(reactionKey));
    for (const reaction of update.new_reaction.map(reactionKey).filter((key) => !before.has(key))) {
      deps.feedback({
        chatId: update.chat.id,
        messageId: update.message_id,
        userId: update.user?.id ?? update.actor_chat?.id ?? update.chat.id,
        reaction,
        feature: remembered?.feature,
        configRevision: remembered?.configRevision,
      });
    }
  };

  const middleware = async (ctx: C, next: () => Promise<void>) => {
    const c = ctx as unknown as ContextInternals;
    const updateType = Object.keys(c.update).find((key) => key !== 'update_id') ?? 'unknown';
    const chatId = c.chat?.id;
    const userId = c.from?.id;
    let feature: string | undefined;
    try {
      feature = options.feature?.(ctx);
    } catch {
      // A feature function that fails leaves the feature unnamed.
    }
    c.lumi = deps.client;
    if (c.update.message_reaction) reportReactions(c.update.message_reaction);
    // grammY copies bot.api's transformers to each ctx.api: one installed there already does the work.
    const listed = c.api?.config?.installedTransformers;
    const installed = (typeof listed === 'function' ? listed() : listed) ?? [];
    if (!installed.includes(transformer)) c.api?.config?.use(transformer);

    let store: Readonly<LumiContext> = {};
    const started = performance.now();
    const report = (status: 'success' | 'error', error?: string) =>
      deps.integrationCall({
        serviceName,
        status,
        latencyMs: performance.now() - started,
        error,
        chatId,
        userId,
        updateType,
      });
    const gate = options.allowance;
    try {
      await deps.context.run({ chatId, userId, feature }, async () => {
        store = deps.context.current();
        if (gate && (gate.when?.(ctx) ?? true)) {
          const allowance = deps.allow();
          if (!allowance.allowed) return void (await gate.onDenied?.(ctx, allowance));
        }
        return next();
      });
    } catch (error) {
      deps.error(error, { source: options.errorSource ?? 'grammy', chatId, userId, feature: store.feature });
      report('error', error instanceof Error ? error.message : String(error));
      throw error;
    }
    report('success');
  };
  return Object.assign(middleware, { transformer });
}
