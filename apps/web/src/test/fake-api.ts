import { vi } from 'vitest';

/** A request as the fake API received it. */
export interface FakeRequest {
  method: string;
  /** The URL exactly as the client passed it to fetch. */
  url: string;
  /** The path without the query, and without the fake's `base` where it starts with it. */
  path: string;
  query: URLSearchParams;
  /** The request headers, names in lower case. */
  headers: Record<string, string>;
  /** The parsed JSON body; undefined when there is none. */
  body: unknown;
}

export type FakeAnswer = Response | Promise<Response>;

/** Answers one request; `params` holds the values of the route's `:name` segments. */
export type FakeHandler = (request: FakeRequest, params: Record<string, string>) => FakeAnswer;

/**
 * What a route answers: the same answer to every call (a copy each time, so it can be read again), a list
 * answered one by one in turn, or a handler. A promise that never settles keeps the caller waiting.
 */
export type FakeRoute = FakeAnswer | Response[] | FakeHandler;

/** Routes keyed by method and path, `'GET /api/users/:id'`; a `:name` segment matches any one segment. */
export type FakeRoutes = Record<string, FakeRoute>;

export interface FakeApi {
  /** Every request, in the order sent, answered or not. */
  readonly requests: FakeRequest[];
  /** Adds routes, or replaces those with the same key. */
  route(routes: FakeRoutes): void;
  /** The requests to `path` (relative to `base`), of one method if given. */
  requestsTo(path: string, method?: string): FakeRequest[];
}

interface CompiledRoute {
  method: string;
  pattern: RegExp;
  names: string[];
  answer: (request: FakeRequest, params: Record<string, string>) => FakeAnswer | undefined;
}

function compile(key: string, route: FakeRoute): CompiledRoute {
  const [method, path] = key.split(' ');
  if (!method || !path) throw new Error(`A fake route is 'METHOD /path', not '${key}'`);
  const names: string[] = [];
  const source = path
    .split('/')
    .map((segment) => {
      if (!segment.startsWith(':')) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(segment.slice(1));
      return '([^/]+)';
    })
    .join('/');
  let calls = 0;
  const answer: CompiledRoute['answer'] =
    typeof route === 'function'
      ? route
      : Array.isArray(route)
        ? () => route[calls++]?.clone()
        : () => Promise.resolve(route).then((response) => response.clone());
  return { method, pattern: new RegExp(`^${source}$`), names, answer };
}

/** What each fake installed in this test was asked and could not answer. */
let unansweredByFake: string[][] = [];

/**
 * Stands in for the server on `fetch`: answers by method and path from `routes`, records every request
 * for assertions, and fails the test (at its end, see `stopFakeApi`) for any request no route answers,
 * so a screen never meets an answer nobody wrote down. `base` is cut from the recorded paths and left
 * out of the route keys, so a feature's fake names its paths as its API layer does.
 */
export function fakeApi(routes: FakeRoutes = {}, { base = '' }: { base?: string } = {}): FakeApi {
  const requests: FakeRequest[] = [];
  const unanswered: string[] = [];
  let table = new Map<string, CompiledRoute>();

  function route(more: FakeRoutes) {
    table = new Map([...table, ...Object.entries(more).map(([key, r]) => [key, compile(key, r)] as const)]);
  }
  route(routes);

  const fetch = vi.fn<typeof globalThis.fetch>((input, init) => {
    const url = String(input);
    const parsed = new URL(url, 'http://localhost');
    const request: FakeRequest = {
      method: init?.method ?? 'GET',
      url,
      path: parsed.pathname.startsWith(base) ? parsed.pathname.slice(base.length) : parsed.pathname,
      query: parsed.searchParams,
      headers: Object.fromEntries(new Headers(init?.headers)),
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    requests.push(request);
    let missing = `${request.method} ${url}`;
    // Later routes win, so a test's own route overrides a feature fake's default for the same request.
    for (const { method, pattern, names, answer } of [...table.values()].reverse()) {
      const match = method === request.method ? pattern.exec(request.path) : null;
      if (!match) continue;
      const params = Object.fromEntries(names.map((name, i) => [name, match[i + 1] ?? '']));
      const response = answer(request, params);
      if (response) return Promise.resolve(response);
      missing += ' (its answers in turn ran out)';
      break;
    }
    unanswered.push(missing);
    return Promise.reject(new Error(`The fake API has no answer for ${missing}`));
  });

  vi.stubGlobal('fetch', fetch);
  unansweredByFake.push(unanswered);
  return {
    requests,
    route,
    requestsTo: (path, method) =>
      requests.filter((r) => r.path === path && (method === undefined || r.method === method)),
  };
}

/**
 * Puts back `fetch` (and any other global stubbed with vi.stubGlobal) and fails the test if a fake API
 * was asked anything it had no answer for; the shared setup calls it after every test.
 */
export function stopFakeApi() {
  const unanswered = unansweredByFake.flat();
  unansweredByFake = [];
  vi.unstubAllGlobals();
  if (unanswered.length > 0) {
    throw new Error(`The fake API had no answer for:\n${unanswered.join('\n')}`);
  }
}
