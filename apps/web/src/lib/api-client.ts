import type { ErrorResponse, FieldError, PendingAction, RefreshResponse } from '@lumi/contract';
import { API_PREFIX, CONSOLE_BASE } from '@lumi/contract';
import { useAuthStore } from './auth-store';
import { takeEarlyCall } from './early-calls';

/**
 * An answer other than 2xx; `detail` is the server's message a person can act on. `body` is the parsed
 * answer as sent, for the few callers that need more than the error shape (a 409's `current` item).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly code: string | undefined,
    readonly errors: FieldError[] = [],
    readonly body: unknown = undefined,
  ) {
    super(detail);
  }
}

/** A refresh's outcome: a new access token, a refusal (the session has ended), or no answer at all. */
export type RefreshOutcome = 'refreshed' | 'refused' | 'unreachable';

let refreshing: Promise<RefreshOutcome> | null = null;

declare global {
  interface Window {
    /** The refresh public/first-load.js starts before this code has loaded, for a remembered session. */
    lumiSessionRefresh?: Promise<Response>;
  }
}

/** The page's early refresh request, handed out once: a refresh token may be used only once. */
function takeEarlyRefresh(): Promise<Response> | undefined {
  const early = window.lumiSessionRefresh;
  delete window.lumiSessionRefresh;
  return early;
}

/**
 * Exchanges the HttpOnly refresh cookie for a new access token. Concurrent callers share one request,
 * because the server rotates the token. Only a refusal ends the session here: a request that got no answer
 * (the page reloading while it ran, the network down) says nothing about the session.
 */
export function refreshSession(): Promise<RefreshOutcome> {
  refreshing ??= (async (): Promise<RefreshOutcome> => {
    let response: Response;
    try {
      response = await (takeEarlyRefresh() ??
        fetch(`${API_PREFIX}/auth/refresh`, {
          method: 'POST',
          credentials: 'same-origin',
          headers: { 'content-type': 'application/json' },
          body: '{}',
        }));
    } catch {
      return 'unreachable';
    }
    try {
      if (!response.ok) return 'refused';
      const body = (await response.json()) as RefreshResponse;
      useAuthStore.getState().setSession(body.access_token, body.user);
      return 'refreshed';
    } catch {
      return 'unreachable';
    }
  })().finally(() => {
    refreshing = null;
  });
  return refreshing;
}

async function toApiError(response: Response): Promise<ApiError> {
  let body: Partial<ErrorResponse> = {};
  try {
    body = (await response.json()) as Partial<ErrorResponse>;
  } catch {
    // Not JSON (a proxy error page, say): fall back to the status text.
  }
  return new ApiError(
    response.status,
    body.detail ?? response.statusText,
    body.code,
    body.errors ?? [],
    body,
  );
}

/**
 * The 403 codes that say what the user must do before anything else (docs/operators/security.md), and that
 * action.
 */
const PENDING_ACTION_OF: Readonly<Record<string, PendingAction>> = {
  password_change_required: 'password_change',
  two_factor_setup_required: 'two_factor_setup',
};

/**
 * A signed-in user can be given a pending action while they work (an admin set a temporary password or
 * reset their two-factor sign-in): the store learns it from the refusal, and the guards send them there.
 */
function notePendingAction(error: ApiError) {
  // Own keys only: a code such as 'constructor' must not find the object's prototype.
  const code = error.status === 403 ? error.code : undefined;
  const action = code && Object.hasOwn(PENDING_ACTION_OF, code) ? PENDING_ACTION_OF[code] : undefined;
  const { user, setUser } = useAuthStore.getState();
  if (action && user && user.pending_action !== action) setUser({ ...user, pending_action: action });
}

export interface RequestOptions {
  query?: Record<string, string | number | boolean | undefined | null>;
  body?: unknown;
  signal?: AbortSignal;
  headers?: Record<string, string>;
  /** For sign-in and sign-out: a 401 is an answer, not an expired session. */
  skipRefresh?: boolean;
}

function buildUrl(path: string, query?: RequestOptions['query']): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const qs = params.toString();
  return `${API_PREFIX}${path}${qs ? `?${qs}` : ''}`;
}

let held: Promise<void> | null = null;

/**
 * Holds every call made from now until the returned function is first called (refreshes go on; calling it
 * again does nothing). main.tsx holds the first screen's data calls until that screen has painted: a phone
 * then paints the screen, then receives and renders its data, instead of rendering the answers before its
 * first frame (docs/benchmarks.md, "The first signed-in load").
 */
export function holdCalls(): () => void {
  let release!: () => void;
  const hold = new Promise<void>((resolve) => (release = resolve));
  held = hold;
  void hold.then(() => {
    if (held === hold) held = null;
  });
  return release;
}

/**
 * The one HTTP client's request: Bearer header when a token exists, and on a 401 one refresh and one retry;
 * when the refresh fails the user is signed out and sent to the sign-in page (spec section 7). Answers the
 * response once it is OK (its body unread, so a download can be read as it arrives), else throws ApiError.
 */
export async function apiResponse(
  method: string,
  path: string,
  options: RequestOptions = {},
): Promise<Response> {
  if (held) await held;
  const send = () => {
    const token = useAuthStore.getState().accessToken;
    const url = buildUrl(path, options.query);
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    if (token) headers.authorization = `Bearer ${token}`;
    const ask = () =>
      fetch(url, {
        method,
        headers,
        credentials: 'same-origin',
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        signal: options.signal,
      });
    // The page may have asked already, while this code loaded; without an answer, it is asked again.
    const early = method === 'GET' && !options.headers ? takeEarlyCall(url, token) : undefined;
    return early ? early.catch(ask) : ask();
  };

  // A screen renders while a remembered session is being restored; its calls wait for that refresh rather
  // than going out without a token only to be refused.
  // A refused restore ends the session (the guards go to sign-in), so the call is not sent at all.
  if (refreshing && !useAuthStore.getState().accessToken && !options.skipRefresh) {
    if ((await refreshing) === 'refused') throw new ApiError(401, 'Sign in to continue', 'unauthenticated');
  }
  let response = await send();
  if (response.status === 401 && !options.skipRefresh) {
    const outcome = await refreshSession();
    if (outcome === 'refreshed') {
      response = await send();
    } else {
      if (outcome === 'refused') {
        useAuthStore.getState().clear();
        window.location.assign(`${CONSOLE_BASE}/login`);
      }
      throw await toApiError(response);
    }
  }
  if (!response.ok) {
    const error = await toApiError(response);
    notePendingAction(error);
    throw error;
  }
  return response;
}

/** JSON in and out through apiResponse. */
export async function apiRequest<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const response = await apiResponse(method, path, options);
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}

export const api = {
  get: <T>(path: string, options?: RequestOptions) => apiRequest<T>('GET', path, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    apiRequest<T>('POST', path, { ...options, body }),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    apiRequest<T>('PUT', path, { ...options, body }),
  delete: <T>(path: string, options?: RequestOptions) => apiRequest<T>('DELETE', path, options),
};

/** The message to show for a failed call: the server's detail, else the caller's fallback. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.detail) return error.detail;
  return fallback;
}
