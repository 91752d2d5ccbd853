import { AsyncLocalStorage } from 'node:async_hooks';
import type { TelegramId } from './events.js';

/**
 * Who and what the work in progress is for: the chat, the user and the feature. An update handler runs in
 * one (the grammY plugin opens it), and every LLM call, error and span reported from inside it, however
 * deep in the handler's awaits, carries them without being told. Node's AsyncLocalStorage follows the
 * handler's async calls (https://nodejs.org/api/async_context.html).
 */
export interface LumiContext {
  chatId?: TelegramId;
  userId?: TelegramId;
  feature?: string;
}

export class ContextStore {
  readonly #storage = new AsyncLocalStorage<LumiContext>();

  /** The context of the code running now; empty outside any. */
  current(): Readonly<LumiContext> {
    return this.#storage.getStore() ?? {};
  }

  /** Runs `fn` in the current context with `context`'s fields on top. */
  run<T>(context: LumiContext, fn: () => T): T {
    const merged = { ...this.current() };
    for (const [key, value] of Object.entries(context)) {
      if (value !== undefined) (merged as Record<string, unknown>)[key] = value;
    }
    return this.#storage.run(merged, fn);
  }

  /**
   * Changes the feature of the current context from here on (an update handler that learns what it is
   * doing); returns false outside a context, where there is nothing to change.
   */
  setFeature(feature: string | undefined): boolean {
    const store = this.#storage.getStore();
    if (!store) return false;
    store.feature = feature;
    return true;
  }
}
