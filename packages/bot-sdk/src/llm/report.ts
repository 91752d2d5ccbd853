import type { LumiContext } from '../context.js';
import type { LlmCallInput } from '../events.js';

/**
 * What the LLM client wrappers share: how a call is timed, how a failure is named, and how the call is
 * reported with the context it was made in (captured when the call starts, not when it ends).
 */

export interface WrapOptions {
  /** The provider's name in Lumi (budgets and prices are per provider); the wrapper's default otherwise. */
  provider?: string;
  /** The feature of calls made outside any context that names one. */
  feature?: string;
}

/** The client's reporting function and the context of the call, as the wrappers receive them. */
export interface LlmReporting {
  report(call: LlmCallInput): void;
  context(): Readonly<LumiContext>;
}

/** Marks a client already wrapped, so wrapping twice never reports a call twice. */
const WRAPPED = Symbol.for('@lumi/bot.wrapped');

/** Runs `wrap`, which changes `client` in place, unless it ran on this client before; returns the client. */
export function wrapOnce<T extends object>(client: T, wrap: () => void): T {
  const marked = client as T & { [WRAPPED]?: boolean };
  if (marked[WRAPPED]) return client;
  wrap();
  Object.defineProperty(marked, WRAPPED, { value: true });
  return client;
}

export interface CallUsage {
  model?: string;
  inputTokens: number;
  outputTokens: number;
}

/**
 * Starts timing one call; `done` reports it once, whichever of success or failure comes first. `stream`
 * hands on a streamed answer, reporting the call when the stream ends with the latest usage a chunk told.
 */
export function startCall(
  reporting: LlmReporting,
  base: { provider: string; model: string; feature?: string },
) {
  const started = performance.now();
  const context = reporting.context();
  let reported = false;
  const done = (usage: CallUsage | null, error?: unknown) => {
    if (reported) return;
    reported = true;
    reporting.report({
      provider: base.provider,
      model: usage?.model || base.model,
      inputTokens: usage?.inputTokens ?? 0,
      outputTokens: usage?.outputTokens ?? 0,
      latencyMs: performance.now() - started,
      success: error === undefined,
      errorType: error === undefined ? undefined : errorTypeOf(error),
      chatId: context.chatId,
      userId: context.userId,
      feature: context.feature ?? base.feature,
      // A failure before an answer used nothing; a success without usage is one Lumi cannot price.
      usageKnown: usage !== null || error !== undefined,
    });
  };
  const stream = <T>(source: AsyncIterable<T>, usageOf: (chunk: T) => CallUsage | null) => {
    let usage: CallUsage | null = null;
    return observeIterable(
      source,
      (chunk) => (usage = usageOf(chunk) ?? usage),
      (error) => done(usage, error),
    );
  };
  return { done, stream };
}

/**
 * A short name for why a call failed, as the LLM errors panel counts them: from the HTTP status the
 * official clients put on their errors (`status`), else from the error's name.
 */
export function errorTypeOf(error: unknown): string {
  const err = error as { status?: unknown; code?: unknown; name?: unknown } | null;
  const status = typeof err?.status === 'number' ? err.status : undefined;
  const name = typeof err?.name === 'string' ? err.name : '';
  if (status === 429) return 'rate_limited';
  if (status === 408 || status === 504 || /timeout/i.test(name) || err?.code === 'ETIMEDOUT')
    return 'timeout';
  if (/abort/i.test(name)) return 'aborted';
  if (status === 401 || status === 403) return 'auth';
  if (status !== undefined && status >= 500) return 'server_error';
  if (status !== undefined && status >= 400) return 'bad_request';
  if (/connection/i.test(name) || (error instanceof TypeError && /fetch/i.test(error.message)))
    return 'connection';
  return name || 'unknown';
}

/** Wraps an async iterable so `onEach` sees every item and `onEnd` the end, an error or an early stop. */
async function* observeIterable<T>(
  source: AsyncIterable<T>,
  onEach: (item: T) => void,
  onEnd: (error?: unknown) => void,
): AsyncGenerator<T> {
  try {
    for await (const item of source) {
      onEach(item);
      yield item;
    }
    onEnd();
  } catch (error) {
    onEnd(error);
    throw error;
  } finally {
    // A consumer that stops early (break) ends the call too: report what was seen.
    onEnd();
  }
}
