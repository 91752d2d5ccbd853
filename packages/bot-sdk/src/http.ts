/** The one way the SDK talks to Lumi: JSON over fetch, with a time limit, and errors that say what to do. */

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export interface HttpOptions {
  /** Lumi's address, e.g. `http://localhost:3000` (a path after it is kept). */
  baseUrl: string;
  apiKey: string;
  fetch: FetchLike;
  timeoutMs: number;
}

/** Lumi answered with an error, or could not be reached (`status` 0). */
export class LumiError extends Error {
  override name = 'LumiError';
  constructor(
    message: string,
    /** The HTTP status; 0 when there was no answer (network error, time-out). */
    readonly status: number,
    /** From `Retry-After`, when Lumi sent one. */
    readonly retryAfterMs?: number,
    /** Lumi's error body: `{detail, code, errors?, request_id, delivery_id?}`. */
    readonly body?: unknown,
  ) {
    super(message);
  }

  /** Worth trying again later: no answer, a time-out, 408, 429 or a 5xx. */
  get retryable(): boolean {
    return this.status === 0 || this.status === 408 || this.status === 429 || this.status >= 500;
  }
}

/** `Retry-After` in milliseconds: seconds or an HTTP date (RFC 9110, section 10.2.3). */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

export interface JsonAnswer<T> {
  status: number;
  headers: Headers;
  body: T;
}

/**
 * Sends one request; resolves with a 2xx or 304 answer and throws LumiError for anything else, with
 * Lumi's `detail` in the message.
 */
export async function requestJson<T>(
  http: HttpOptions,
  method: string,
  path: string,
  options: { body?: unknown; headers?: Record<string, string>; signal?: AbortSignal } = {},
): Promise<JsonAnswer<T>> {
  const controller = new AbortController();
  // A timer of the global clock (not AbortSignal.timeout), so tests with fake timers control it.
  const timer = setTimeout(() => controller.abort(), http.timeoutMs);
  const onAbort = () => controller.abort();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  const url = `${http.baseUrl.replace(/\/+$/, '')}${path}`;
  try {
    let response: Response;
    try {
      response = await http.fetch(url, {
        method,
        headers: {
          authorization: `Bearer ${http.apiKey}`,
          accept: 'application/json',
          ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
          ...options.headers,
        },
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        signal: controller.signal,
      });
    } catch (error) {
      const why = controller.signal.aborted
        ? options.signal?.aborted
          ? 'cancelled'
          : `no answer within ${http.timeoutMs} ms`
        : error instanceof Error
          ? ((error.cause as Error | undefined)?.message ?? error.message)
          : String(error);
      throw new LumiError(`${method} ${path}: Lumi could not be reached (${why})`, 0);
    }
    if (response.status === 304) {
      // A 304 has no body whatever Content-Length says (RFC 9110, section 15.4.5). Lumi's says 4, and
      // Node's fetch would hold the connection open waiting for those bytes: end the request here.
      controller.abort();
      return { status: 304, headers: response.headers, body: null as T };
    }
    const text = await response.text().catch(() => '');
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      // Not JSON (a proxy's error page): keep the text for the message.
    }
    if (response.ok) return { status: response.status, headers: response.headers, body: body as T };
    const detail =
      body && typeof body === 'object' && 'detail' in body
        ? String((body as { detail: unknown }).detail)
        : String(text).slice(0, 200) || response.statusText;
    throw new LumiError(
      `${method} ${path} answered ${response.status}: ${detail}`,
      response.status,
      parseRetryAfter(response.headers.get('retry-after')),
      body,
    );
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
}

/** A wait for retry number `attempt` (from 1): doubling from `minMs` up to `maxMs`, each between half and all of it. */
export function backoffMs(attempt: number, minMs: number, maxMs: number, random = Math.random): number {
  const ceiling = Math.min(maxMs, minMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
