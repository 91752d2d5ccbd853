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

export const FAIL_HEADER = 'x-stand-in-fail';
export const CACHE_READ_HEADER = 'x-stand-in-cache-read';
export const CACHE_WRITE_HEADER = 'x-stand-in-cache-write';

/** The model a request names and the versioned name the API answers with, as the providers alias them. */
const DATED_MODELS = {
  'gpt-4o-mini': 'gpt-4o-mini-2024-07-18',
  'gpt-4o': 'gpt-4o-2024-08-06',
  'gpt-4.1-mini': 'gpt-4.1-mini-2025-04-14',
  'claude-3-5-haiku-latest': 'claude-3-5-haiku-20241022',
  'claude-3-5-sonnet-latest': 'claude-3-5-sonnet-20241022',
  'claude-3-7-sonnet-latest': 'claude-3-7-sonnet-20250219',
};

/** The name the API answers a request for `model` with (embedding and Gemini models answer undated). */
export function answeredModel(model) {
  return DATED_MODELS[model] ?? model;
}

/** FNV-1a: a stable number per request, so the same request always gets the same answer. */
function fnv(text) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash;
}

const tokensOf = (text) => Math.ceil(text.length / 4);
const WORDS = ['The', 'stand-in', 'answers', 'this', 'request', 'with', 'a', 'short', 'reply', 'today.'];

/** A reply of `tokens` words, one token each, and its pieces for a stream. */
function replyOf(tokens) {
  const words = Array.from({ length: tokens }, (_, i) => WORDS[i % WORDS.length]);
  const text = words.join(' ');
  const size = Math.ceil(words.length / 4);
  const pieces = [];
  for (let i = 0; i < words.length; i += size)
    pieces.push((i ? ' ' : '') + words.slice(i, i + size).join(' '));
  return { text, pieces };
}

/** The text of a message's content in any provider's shape: a string, or parts with text. */
function textOf(content) {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map(textOf).join('\n');
  if (content && typeof content === 'object') {
    if (typeof content.text === 'string') return content.text;
    if (content.content !== undefined) return textOf(content.content);
    if (Array.isArray(content.parts)) return textOf(content.parts);
  }
  return '';
}

const ids = { n: 0 };
const nextId = (prefix, length = 24) => {
  ids.n += 1;
  return `${prefix}${fnv(`${prefix}${ids.n}`).toString(36)}${String(ids.n).padStart(6, '0')}`.slice(
    0,
    length,
  );
};

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

/** Usage that depends only on the request: input from its text, output from a hash of it. */
function usageOf(model, text, parts) {
  const input = 3 + parts * 4 + tokensOf(text);
  const output = 8 + (fnv(`${model}\n${text}`) % 32);
  return { input, output };
}

/** A vector of `dimensions` numbers that depends only on the text. */
function vectorOf(text, dimensions) {
  let seed = fnv(text);
  return Array.from({ length: dimensions }, () => {
    seed = Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) >>> 0;
    return Math.round(((seed / 2 ** 32) * 2 - 1) * 1e6) / 1e6;
  });
}

const now = () => Math.floor(Date.now() / 1000);

const ANSWERS = {
  /** https://platform.openai.com/docs/api-reference/chat/create, and its streamed chunks. */
  'chat.completions'({ body, model, stream, cacheRead }) {
    const messages = Array.isArray(body.messages) ? body.messages : [];
    const text = messages.map((m) => textOf(m.content)).join('\n');
    const { input, output } = usageOf(model, text, messages.length);
    const cached = Math.min(cacheRead, input);
    const responseModel = answeredModel(model);
    const reply = replyOf(output);
    const usage = {
      prompt_tokens: input,
      completion_tokens: output,
      total_tokens: input + output,
      prompt_tokens_details: { cached_tokens: cached, audio_tokens: 0 },
      completion_tokens_details: {
        reasoning_tokens: 0,
        audio_tokens: 0,
        accepted_prediction_tokens: 0,
        rejected_prediction_tokens: 0,
      },
    };
    const head = {
      id: nextId('chatcmpl-', 38),
      created: now(),
      model: responseModel,
      service_tier: 'default',
      system_fingerprint: 'fp_standin01',
    };
    const recorded = { input, output, cacheRead: cached, cacheWrite: 0 };
    if (!stream) {
      return {
        responseModel,
        usage: recorded,
        body: {
          ...head,
          object: 'chat.completion',
          choices: [
            {
              index: 0,
              message: { role: 'assistant', content: reply.text, refusal: null, annotations: [] },
              logprobs: null,
              finish_reason: 'stop',
            },
          ],
          usage,
        },
      };
    }
    const withUsage = body.stream_options?.include_usage === true;
    const chunk = (choices, extra = {}) => ({
      data: {
        ...head,
        object: 'chat.completion.chunk',
        choices,
        ...(withUsage && { usage: null }),
        ...extra,
      },
    });
    const delta = (d, finish = null) => [{ index: 0, delta: d, logprobs: null, finish_reason: finish }];
    return {
      responseModel,
      usage: recorded,
      events: [
        chunk(delta({ role: 'assistant', content: '', refusal: null })),
        ...reply.pieces.map((piece) => chunk(delta({ content: piece }))),
        chunk(delta({}, 'stop')),
        ...(withUsage ? [chunk([], { usage })] : []),
        { data: '[DONE]' },
      ],
    };
  },

  /** https://platform.openai.com/docs/api-reference/responses/create, and its streaming events. */
  responses({ body, model, stream, cacheRead }) {
    const items = typeof body.input === 'string' ? [{ content: body.input }] : (body.input ?? []);
    const text = [body.instructions ?? '', ...items.map((i) => textOf(i.content ?? i))].join('\n');
    const { input, output } = usageOf(model, text, items.length);
    const cached = Math.min(cacheRead, input);
    const responseModel = answeredModel(model);
    const reply = replyOf(output);
    const id = nextId('resp_', 40);
    const messageId = nextId('msg_', 40);
    const created = now();
    const usage = {
      input_tokens: input,
      input_tokens_details: { cached_tokens: cached },
      output_tokens: output,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: input + output,
    };
    const part = { type: 'output_text', text: reply.text, annotations: [], logprobs: [] };
    const message = {
      id: messageId,
      type: 'message',
      status: 'completed',
      role: 'assistant',
      content: [part],
    };
    const response = (status, extra) => ({
      id,
      object: 'response',
      created_at: created,
      status,
      background: false,
      error: null,
      incomplete_details: null,
      instructions: body.instructions ?? null,
      max_output_tokens: body.max_output_tokens ?? null,
      model: responseModel,
      output: [],
      parallel_tool_calls: true,
      previous_response_id: null,
      reasoning: { effort: null, summary: null },
      service_tier: 'default',
      store: true,
      temperature: body.temperature ?? 1,
      text: { format: { type: 'text' }, verbosity: 'medium' },
      tool_choice: 'auto',
      tools: [],
      top_p: body.top_p ?? 1,
      truncation: 'disabled',
      usage: null,
      user: null,
      metadata: {},
      ...extra,
    });
    const recorded = { input, output, cacheRead: cached, cacheWrite: 0 };
    if (!stream) {
      return {
        responseModel,
        usage: recorded,
        body: response('completed', { output: [message], usage }),
      };
    }
    let sequence = 0;
    const event = (type, data) => ({ event: type, data: { type, sequence_number: sequence++, ...data } });
    const place = { item_id: messageId, output_index: 0, content_index: 0 };
    return {
      responseModel,
      usage: recorded,
      events: [
        event('response.created', { response: response('in_progress') }),
        event('response.in_progress', { response: response('in_progress') }),
        event('response.output_item.added', {
          output_index: 0,
          item: { ...message, status: 'in_progress', content: [] },
        }),
        event('response.content_part.added', {
          ...place,
          part: { type: 'output_text', text: '', annotations: [], logprobs: [] },
        }),
        ...reply.pieces.map((delta) =>
          event('response.output_text.delta', { ...place, delta, logprobs: [], obfuscation: 'x' }),
        ),
        event('response.output_text.done', { ...place, text: reply.text, logprobs: [] }),
        event('response.content_part.done', { ...place, part }),
        event('response.output_item.done', { output_index: 0, item: message }),
        event('response.completed', { response: response('completed', { output: [message], usage }) }),
      ],
    };
  },

  /** https://platform.openai.com/docs/api-reference/embeddings/create */
  embeddings({ body, model }) {
    const inputs = Array.isArray(body.input) ? body.input : [body.input ?? ''];
    const texts = inputs.map((i) => (typeof i === 'string' ? i : JSON.stringify(i)));
    const input = texts.reduce((sum, t) => sum + Math.max(1, tokensOf(t)), 0);
    const dimensions = body.dimensions ?? 1536;
    const base64 = body.encoding_format === 'base64';
    const embedding = (t) => {
      const vector = vectorOf(t, dimensions);
      return base64 ? Buffer.from(new Float32Array(vector).buffer).toString('base64') : vector;
    };
    return {
      responseModel: answeredModel(model),
      usage: { input, output: 0, cacheRead: 0, cacheWrite: 0 },
      body: {
        object: 'list',
        data: texts.map((t, index) => ({ object: 'embedding', index, embedding: embedding(t) })),
        model: answeredModel(model),
        usage: { prompt_tokens: input, total_tokens: input },
      },
    };
  },

  /** https://docs.anthropic.com/en/api/messages and .../messages-streaming */
  messages({ body, model, stream, cacheRead, cacheWrite }) {
    const messages = Array.isArray(body.messages) ? body.messages : [];
    const text = [textOf(body.system ?? ''), ...messages.map((m) => textOf(m.content))].join('\n');
    const { input, output } = usageOf(model, text, messages.length);
    const responseModel = answeredModel(model);
    const reply = replyOf(output);
    // Anthropic's input_tokens leave out the cached tokens, which it reports beside them.
    const usage = {
      input_tokens: input,
      cache_creation_input_tokens: cacheWrite,
      cache_read_input_tokens: cacheRead,
      cache_creation: { ephemeral_5m_input_tokens: cacheWrite, ephemeral_1h_input_tokens: 0 },
      output_tokens: output,
      service_tier: 'standard',
    };
    const message = {
      id: nextId('msg_01', 30),
      type: 'message',
      role: 'assistant',
      model: responseModel,
      content: [{ type: 'text', text: reply.text }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage,
    };
    const recorded = { input: input + cacheRead + cacheWrite, output, cacheRead, cacheWrite };
    if (!stream) return { responseModel, usage: recorded, body: message };
    const event = (type, data) => ({ event: type, data: { type, ...data } });
    return {
      responseModel,
      usage: recorded,
      events: [
        event('message_start', {
          message: { ...message, content: [], stop_reason: null, usage: { ...usage, output_tokens: 1 } },
        }),
        event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
        event('ping', {}),
        ...reply.pieces.map((piece) =>
          event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: piece } }),
        ),
        event('content_block_stop', { index: 0 }),
        event('message_delta', {
          delta: { stop_reason: 'end_turn', stop_sequence: null },
          usage: { output_tokens: output },
        }),
        event('message_stop', {}),
      ],
    };
  },

  generateContent: (request) => gemini(request, false),
  streamGenerateContent: (request) => gemini(request, true),

  /** https://ai.google.dev/api/embeddings#method:-models.embedcontent */
  embedContent({ body, model }) {
    const text = textOf(body.content);
    return {
      responseModel: model,
      usage: { input: Math.max(1, tokensOf(text)), output: 0, cacheRead: 0, cacheWrite: 0 },
      body: { embedding: { values: vectorOf(text, body.outputDimensionality ?? 3072) } },
    };
  },

  batchEmbedContents({ body, model }) {
    const requests = Array.isArray(body.requests) ? body.requests : [];
    const texts = requests.map((r) => textOf(r.content));
    return {
      responseModel: model,
      usage: {
        input: texts.reduce((sum, t) => sum + Math.max(1, tokensOf(t)), 0),
        output: 0,
        cacheRead: 0,
        cacheWrite: 0,
      },
      body: {
        embeddings: texts.map((t, i) => ({
          values: vectorOf(t, requests[i].outputDimensionality ?? 3072),
        })),
      },
    };
  },
};

/**
 * https://ai.google.dev/api/generate-content: a GenerateContentResponse, or its chunks as server-sent
 * events. Gemini 2.5 models think unless thinkingConfig.thinkingBudget is 0: thoughtsTokenCount is
 * billed as output beside candidatesTokenCount; promptTokenCount includes cachedContentTokenCount.
 */
function gemini({ body, model, cacheRead }, stream) {
  const contents = Array.isArray(body.contents) ? body.contents : [body.contents ?? ''];
  const text = [textOf(body.systemInstruction ?? ''), ...contents.map(textOf)].join('\n');
  const { input, output } = usageOf(model, text, contents.length);
  const thinks = /^gemini-2\.5/.test(model) && body.generationConfig?.thinkingConfig?.thinkingBudget !== 0;
  const thoughts = thinks ? 3 * output : 0;
  const cached = Math.min(cacheRead, input);
  const reply = replyOf(output);
  const responseId = nextId('', 22);
  const usageMetadata = (candidates) => ({
    promptTokenCount: input,
    ...(candidates !== undefined && { candidatesTokenCount: candidates }),
    totalTokenCount: input + (candidates ?? 0) + thoughts,
    ...(cached > 0 && { cachedContentTokenCount: cached }),
    promptTokensDetails: [{ modality: 'TEXT', tokenCount: input }],
    ...(cached > 0 && { cacheTokensDetails: [{ modality: 'TEXT', tokenCount: cached }] }),
    ...(thoughts > 0 && { thoughtsTokenCount: thoughts }),
  });
  const answer = (parts, finish, candidates) => ({
    candidates: [
      {
        content: { parts, role: 'model' },
        ...(finish && { finishReason: 'STOP' }),
        index: 0,
      },
    ],
    usageMetadata: usageMetadata(candidates),
    modelVersion: model,
    responseId,
  });
  const recorded = { input, output: output + thoughts, cacheRead: cached, cacheWrite: 0 };
  if (!stream) {
    return { responseModel: model, usage: recorded, body: answer([{ text: reply.text }], true, output) };
  }
  const last = reply.pieces.length - 1;
  return {
    responseModel: model,
    usage: recorded,
    events: reply.pieces.map((piece, i) => ({
      data: answer([{ text: piece }], i === last, i === last ? output : undefined),
    })),
  };
}

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
