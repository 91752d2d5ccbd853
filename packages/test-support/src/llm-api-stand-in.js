// A local stand-in for the LLM providers' HTTP APIs, for the tests that run the real client packages
// (openai, @anthropic-ai/sdk, @google/genai, the AI SDK) and their OpenTelemetry instrumentations: it is
// NOT any provider and sends nothing anywhere. It answers as the documented APIs do, so the clients parse
// its answers as they would the real ones:
// - OpenAI (https://platform.openai.com/docs/api-reference): POST /v1/chat/completions, streamed as
//   server-sent events with the usage chunk when stream_options.include_usage is set; POST /v1/responses,
//   streamed as the Responses API's typed events; POST /v1/embeddings (float or base64).
// - Anthropic (https://docs.anthropic.com/en/api/messages, .../messages-streaming): POST /v1/messages,
//   streamed as message_start … message_delta (the output usage) … message_stop.
// - Gemini (https://ai.google.dev/api/generate-content): POST /v1beta/models/<model>:generateContent,
//   :streamGenerateContent?alt=sse, :embedContent and :batchEmbedContents.
// Answers name the model as the APIs do (gpt-4o-mini asked, gpt-4o-mini-2024-07-18 answered) and carry
// token usage that depends only on the request, so a test can add it up. A request fails on demand, with
// the provider's own error body: its header `x-stand-in-fail: <status>` (429, 500, 503 or 529), or
// failNext(). `x-stand-in-cache-read: <n>` (and, for Anthropic, `x-stand-in-cache-write: <n>`) make the
// usage report n cached input tokens as the provider reports prompt caching. GET /calls lists the calls.
import { createServer } from 'node:http';
import { ANSWERS } from './llm-api-answers.js';
import { nextId } from './llm-api-shapes.js';

export const FAIL_HEADER = 'x-stand-in-fail';
export const CACHE_READ_HEADER = 'x-stand-in-cache-read';
export const CACHE_WRITE_HEADER = 'x-stand-in-cache-write';
export { answeredModel } from './llm-api-shapes.js';

/** The providers' error answers (status → body), as their API references document them. */
const ERRORS = {
  openai: {
    429: {
      error: {
        message:
          'Rate limit reached for gpt-4o-mini in organization org-standin on requests per min (RPM): Limit 500, ' +
          'Used 500, Requested 1. Please try again in 120ms. Visit https://platform.openai.com/account/rate-limits ' +
          'to learn more.',
        type: 'requests',
        param: null,
        code: 'rate_limit_exceeded',
      },
    },
    500: {
      error: {
        message: 'The server had an error while processing your request. Sorry about that!',
        type: 'server_error',
        param: null,
        code: null,
      },
    },
    503: {
      error: {
        message: 'The engine is currently overloaded, please try again later',
        type: 'server_error',
        param: null,
        code: null,
      },
    },
  },
  anthropic: {
    429: {
      type: 'error',
      error: {
        type: 'rate_limit_error',
        message:
          'This request would exceed the rate limit for your organization of 50 requests per minute. For details, ' +
          'refer to: https://docs.claude.com/en/api/rate-limits.',
      },
    },
    500: { type: 'error', error: { type: 'api_error', message: 'Internal server error' } },
    529: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
  },
  google: {
    429: {
      error: {
        code: 429,
        message:
          'You exceeded your current quota, please check your plan and billing details. For more information on ' +
          'this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits.',
        status: 'RESOURCE_EXHAUSTED',
      },
    },
    500: {
      error: {
        code: 500,
        message:
          'An internal error has occurred. Please retry or report in ' +
          'https://developers.generativeai.google/guide/troubleshooting',
        status: 'INTERNAL',
      },
    },
    503: {
      error: {
        code: 503,
        message: 'The model is overloaded. Please try again later.',
        status: 'UNAVAILABLE',
      },
    },
  },
};

/** The type an error answer names: OpenAI's code (else type), Anthropic's error type, Google's status. */
function errorTypeOf(provider, body) {
  if (provider === 'openai') return body.error.code ?? body.error.type;
  if (provider === 'anthropic') return body.error.type;
  return body.error.status;
}

export class LlmApiStandIn {
  /**
   * Every call answered, in order: { provider, api, model (asked for), responseModel (answered), stream,
   * status, errorType, usage: { input (all input tokens, cached ones included), output (all billed output
   * tokens, thinking included), cacheRead, cacheWrite } }; a failed call's usage is all zeros.
   */
  calls = [];
  #server;
  #failures = [];

  constructor(server, url) {
    this.#server = server;
    /** The origin, e.g. http://127.0.0.1:PORT: Anthropic's and Gemini's base URL. */
    this.url = url;
    /** The base URL of the OpenAI clients (the API's /v1). */
    this.openaiBaseUrl = `${url}/v1`;
  }

  /** Starts the stand-in on host:port (a free port by default). */
  static async start({ host = '127.0.0.1', port = 0 } = {}) {
    const holder = {};
    const server = createServer((req, res) => {
      holder.standIn.handle(req, res).catch((error) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(String(error));
      });
    });
    await new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen({ host, port }, resolve);
    });
    holder.standIn = new LlmApiStandIn(server, `http://${host}:${server.address().port}`);
    return holder.standIn;
  }

  /** The next `count` model calls fail with `status` (429, 500, 503 or 529), whatever they ask. */
  failNext(count, status) {
    for (let i = 0; i < count; i += 1) this.#failures.push(status);
  }

  reset() {
    this.calls.length = 0;
    this.#failures = [];
  }

  async close() {
    this.#server.closeAllConnections();
    await new Promise((resolve) => this.#server.close(() => resolve()));
  }

  async handle(req, res) {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const url = new URL(req.url ?? '/', this.url);
    if (req.method === 'GET' && url.pathname === '/calls') return json(res, 200, this.calls);
    let body = {};
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
    } catch {
      return json(res, 400, { error: { message: 'We could not parse the JSON body of your request.' } });
    }
    const route = routeOf(req.method, url.pathname);
    if (!route) return json(res, 404, { error: { message: `Unknown request URL: ${url.pathname}` } });
    const stream =
      route.api === 'streamGenerateContent' || (route.provider !== 'google' && body.stream === true);
    const model = route.model ?? String(body.model ?? '');
    const call = { provider: route.provider, api: route.api, model, stream };
    const header = (name) => Number(req.headers[name] ?? 0) || 0;

    const failure = this.#failures.shift() ?? header(FAIL_HEADER);
    const errorBody = failure && (ERRORS[route.provider][failure] ?? ERRORS[route.provider][500]);
    if (errorBody) {
      const status = ERRORS[route.provider][failure] ? failure : 500;
      this.calls.push({
        ...call,
        responseModel: null,
        status,
        errorType: errorTypeOf(route.provider, errorBody),
        usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
      });
      const requestId = nextId('req_');
      const headers =
        route.provider === 'anthropic'
          ? { 'request-id': requestId, ...(status === 429 && { 'retry-after': '1' }) }
          : { 'x-request-id': requestId, ...(status === 429 && { 'retry-after': '1' }) };
      const answer = route.provider === 'anthropic' ? { ...errorBody, request_id: requestId } : errorBody;
      return json(res, status, answer, headers);
    }

    const answer = ANSWERS[route.api]({
      body,
      model,
      stream,
      cacheRead: header(CACHE_READ_HEADER),
      cacheWrite: header(CACHE_WRITE_HEADER),
    });
    this.calls.push({
      ...call,
      responseModel: answer.responseModel,
      status: 200,
      errorType: null,
      usage: answer.usage,
    });
    const headers =
      route.provider === 'anthropic'
        ? { 'request-id': nextId('req_'), 'anthropic-organization-id': 'stand-in-organization' }
        : route.provider === 'openai'
          ? { 'x-request-id': nextId('req_'), 'openai-processing-ms': '42', 'openai-version': '2020-10-01' }
          : {};
    if (answer.events) return sse(res, answer.events, headers);
    return json(res, 200, answer.body, headers);
  }
}

function routeOf(method, path) {
  if (method !== 'POST') return null;
  if (path === '/v1/chat/completions') return { provider: 'openai', api: 'chat.completions' };
  if (path === '/v1/responses') return { provider: 'openai', api: 'responses' };
  if (path === '/v1/embeddings') return { provider: 'openai', api: 'embeddings' };
  if (path === '/v1/messages') return { provider: 'anthropic', api: 'messages' };
  const gemini = /^\/v1(?:beta|alpha)?\/models\/([^/:]+):(\w+)$/.exec(path);
  if (gemini && GEMINI_APIS.has(gemini[2])) {
    return { provider: 'google', api: gemini[2], model: decodeURIComponent(gemini[1]) };
  }
  return null;
}

const GEMINI_APIS = new Set([
  'generateContent',
  'streamGenerateContent',
  'embedContent',
  'batchEmbedContents',
]);

function json(res, status, body, headers = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

/** Server-sent events: `event:` when the API names its events, then `data:` (https://html.spec.whatwg.org/multipage/server-sent-events.html). */
function sse(res, events, headers) {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    ...headers,
  });
  for (const { event, data } of events) {
    const payload = typeof data === 'string' ? data : JSON.stringify(data);
    res.write(`${event ? `event: ${event}\n` : ''}data: ${payload}\n\n`);
  }
  res.end();
}
