import type { ApiMethods, ApiResponse, Opts } from '@grammyjs/types';

/**
 * A small client of the Telegram Bot API (https://core.telegram.org/bots/api#making-requests): POST JSON
 * to {base}/bot{token}/{method}. A 429 waits `retry_after` and tries again (bounded); anything else that
 * is not ok becomes a TelegramError whose message a person can act on. The token is part of every URL,
 * so no URL, request or raw error ever leaves this class: messages are built here and scrubbed of it.
 */

export const TELEGRAM_DEFAULT_BASE_URL = 'https://api.telegram.org';

export interface TelegramSettings {
  /** TELEGRAM_BOT_TOKEN; without it every call fails with a message saying how to set it. */
  botToken?: string;
  /** TELEGRAM_API_BASE_URL, e.g. a local Bot API server; https://api.telegram.org by default. */
  apiBaseUrl?: string;
  /** How long one request may take (10 s). */
  timeoutMs?: number;
  /** Tries of one call when Telegram answers 429 (3). */
  maxAttempts?: number;
  /** The longest retry_after that is waited for (30 s); a longer one fails at once. */
  maxRetryAfterSeconds?: number;
  /** Tests pass a sleep that does not wait. */
  sleep?: (ms: number) => Promise<void>;
}

export type TelegramFailure =
  'not_configured' | 'rejected' | 'rate_limited' | 'timeout' | 'network' | 'server_error' | 'bad_response';

export class TelegramError extends Error {
  constructor(
    message: string,
    readonly reason: TelegramFailure,
    /** Telegram's error_code, when it answered (or the HTTP status). */
    readonly errorCode?: number,
    /** With 'rate_limited': how long Telegram asked the bot to wait. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'TelegramError';
  }
}

export const NOT_CONFIGURED_MESSAGE =
  'Telegram is not configured: set TELEGRAM_BOT_TOKEN to the bot token from @BotFather (and restart Lumi Admin) to send test messages';

type Methods = ApiMethods<never>;
type Method = keyof Methods;

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class TelegramClient {
  private readonly token: string | undefined;
  private readonly baseUrl: string;
  private readonly timeoutMs: number;
  private readonly maxAttempts: number;
  private readonly maxRetryAfterSeconds: number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(settings: TelegramSettings = {}) {
    this.token = settings.botToken || undefined;
    this.baseUrl = (settings.apiBaseUrl || TELEGRAM_DEFAULT_BASE_URL).replace(/\/+$/, '');
    this.timeoutMs = settings.timeoutMs ?? 10_000;
    this.maxAttempts = Math.max(settings.maxAttempts ?? 3, 1);
    this.maxRetryAfterSeconds = settings.maxRetryAfterSeconds ?? 30;
    this.sleep = settings.sleep ?? wait;
  }

  get configured(): boolean {
    return this.token !== undefined;
  }

  async call<M extends Method>(method: M, params: Opts<never>[M]): Promise<ReturnType<Methods[M]>> {
    if (!this.token) throw new TelegramError(NOT_CONFIGURED_MESSAGE, 'not_configured');
    for (let attempt = 1; ; attempt += 1) {
      const { status, body, retryAfterHeader } = await this.post(method, params);
      if (body?.ok) return body.result as ReturnType<Methods[M]>;

      if (status === 429 || body?.error_code === 429) {
        const retryAfter = Math.max(Math.ceil(body?.parameters?.retry_after ?? retryAfterHeader ?? 1), 1);
        if (attempt < this.maxAttempts && retryAfter <= this.maxRetryAfterSeconds) {
          await this.sleep(retryAfter * 1000);
          continue;
        }
        const why =
          attempt >= this.maxAttempts ? `still after ${attempt} tries` : 'longer than Lumi Admin waits';
        throw new TelegramError(
          `Telegram is limiting how fast the bot may send (429 Too Many Requests, ${why}): try again in ${retryAfter} s`,
          'rate_limited',
          429,
          retryAfter,
        );
      }
      if (!body) {
        throw new TelegramError(
          `Telegram answered ${method} with HTTP ${status} and no Bot API response; check TELEGRAM_API_BASE_URL`,
          'bad_response',
          status,
        );
      }
      if (status >= 500 || body.error_code >= 500) {
        throw new TelegramError(
          `Telegram answered ${method} with a server error (${body.error_code}${body.description ? `: ${this.scrub(body.description)}` : ''})`,
          'server_error',
          body.error_code,
        );
      }
      throw new TelegramError(
        this.scrub(this.describe(body.error_code, body.description)),
        'rejected',
        body.error_code,
      );
    }
  }

  private describe(code: number, description: string): string {
    if (code === 401) return `Telegram refused the bot token (${description}): check TELEGRAM_BOT_TOKEN`;
    if (code === 404) {
      return `Telegram answered ${description} (404): check TELEGRAM_BOT_TOKEN and TELEGRAM_API_BASE_URL`;
    }
    // A 400 (such as "Bad Request: can't parse entities: …") is shown as Telegram wrote it.
    return description || `Telegram refused the request (error ${code})`;
  }

  private async post(
    method: string,
    params: unknown,
  ): Promise<{ status: number; body: ApiResponse<unknown> | null; retryAfterHeader?: number }> {
    const url = `${this.baseUrl}/bot${this.token}/${method}`;
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(params),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      const text = await response.text();
      let body: ApiResponse<unknown> | null = null;
      try {
        const parsed = JSON.parse(text) as ApiResponse<unknown>;
        if (parsed && typeof parsed === 'object' && typeof parsed.ok === 'boolean') body = parsed;
      } catch {
        body = null;
      }
      const header = Number(response.headers.get('retry-after'));
      return {
        status: response.status,
        body,
        retryAfterHeader: Number.isFinite(header) && header > 0 ? header : undefined,
      };
    } catch (error) {
      const name = error instanceof Error ? error.name : '';
      if (name === 'TimeoutError' || name === 'AbortError') {
        throw new TelegramError(
          `Telegram did not answer ${method} within ${Math.round(this.timeoutMs / 100) / 10} s; try again later`,
          'timeout',
        );
      }
      const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
      const detail =
        (cause as { code?: string }).code ?? (cause instanceof Error ? cause.message : String(cause));
      throw new TelegramError(
        this.scrub(
          `Could not reach Telegram at ${originOf(this.baseUrl)} (${detail}); check the network and TELEGRAM_API_BASE_URL`,
        ),
        'network',
      );
    }
  }

  /** Belt and braces: no message may carry the token, whatever produced it. */
  private scrub(message: string): string {
    return this.token ? message.replaceAll(this.token, '[redacted]') : message;
  }
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

/** Telegram's chat_id: a number for numeric ids, the text for an @username. */
export function toChatId(chatId: string): number | string {
  const n = Number(chatId);
  return /^-?\d+$/.test(chatId) && Number.isSafeInteger(n) ? n : chatId;
}
