// A local stand-in for the Telegram Bot API for the tests, the end-to-end tests, the demo and the benchmark:
// it is NOT Telegram and sends nothing anywhere. It answers POST /bot<token>/<method> with a JSON body as
// the Bot API does (https://core.telegram.org/bots/api#making-requests): {ok, result} or
// {ok: false, error_code, description, parameters}; sendMessage gets a new message, any other method
// `true`. GET /requests lists the requests it received, for a test in another process.
import { createServer } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';

/** Telegram's overall limit for a bot: messages a second (https://core.telegram.org/bots/faq). */
export const TELEGRAM_PER_SECOND = 30;

/** Milliseconds since the epoch with sub-millisecond precision, for spacing figures. */
export const preciseNow = () => performance.timeOrigin + performance.now();

const refusal = (status, description, parameters) => ({
  status,
  body: { ok: false, error_code: status, description, ...(parameters && { parameters }) },
});

/** Telegram's answer to a bot that must wait `retryAfter` seconds before sending again. */
export const tooManyRequests = (retryAfter) =>
  refusal(429, `Too Many Requests: retry after ${retryAfter}`, { retry_after: retryAfter });

export const badRequest = (description) => refusal(400, description);

export const forbidden = (description = 'Forbidden: bot was kicked from the supergroup chat') =>
  refusal(403, description);

export const serverError = (status = 502, description = 'Bad Gateway') => refusal(status, description);

export class FakeBotApi {
  /** Every request that arrived: { token, method, body }, in order. */
  requests = [];
  /** When each request arrived (by `clock`), in the order of `requests`. */
  arrivals = [];
  /** Each sendMessage answered with success: { at, chat_id, text }, `at` by `clock`. */
  accepted = [];
  /**
   * Each sendMessage refused by `failures` or a queued answer:
   * { at, chat_id, error_code, description, retry_after?, flood_wait }, flood_wait when it came within an
   * earlier 429's retry_after.
   */
  refused = [];
  /** Requests by method, the 429s `limit` answered, and the refusals of `failures`. */
  counts = { requests: 0, byMethod: {}, rateLimited: 0, refusedOnPurpose: 0 };
  /** How long every answer takes after the request arrived (a slow Telegram). */
  delayMs = 0;
  /**
   * How long a request takes to arrive after this server got it, drawn for each: time on the way to
   * Telegram that varies, as the receiver's timestamps show it. None by default.
   */
  transitMs = null;
  /** Called as each request arrives, before it is answered (e.g. to move a test's clock on). */
  onArrival = null;

  #server;
  #options;
  #queue = [];
  #waiting = [];
  #nextMessageId = 1000;
  #sendCount = 0;
  /** Until when a 429 chosen by `failures` holds (by `clock`): every message meanwhile gets one too. */
  #floodWaitUntil = 0;

  constructor(server, url, options) {
    this.#server = server;
    this.url = url;
    this.#options = options;
    this.clock = options.clock ?? Date.now;
  }

  /**
   * Starts the fake on host:port (a free port by default).
   * - `limit`: a message is refused with 429 when TELEGRAM_PER_SECOND were accepted within the last second.
   * - `failures(message, n)`: asked about the n-th sendMessage (from 1, retries included; message is
   *   { chat_id, text }); returns null to go on, or a refusal to answer instead (tooManyRequests(…) …). A 429
   *   it returns holds for its retry_after, as Telegram's flood wait does.
   * - `clock`: the receiver's clock (ms since the epoch), Date.now by default.
   */
  static async start(options = {}) {
    const { host = '127.0.0.1', port = 0 } = options;
    const holder = {};
    const server = createServer((req, res) => void holder.api.handle(req, res));
    await new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen({ host, port }, resolve);
    });
    holder.api = new FakeBotApi(server, `http://${host}:${server.address().port}`, options);
    return holder.api;
  }

  /** The next requests get these answers, in order; the ones after them are answered as usual. */
  respond(...replies) {
    this.#queue.push(...replies);
  }

  /** Forgets the requests, queued answers and settings; message ids start again at 1001. */
  reset() {
    for (const list of [this.requests, this.arrivals, this.accepted, this.refused]) list.length = 0;
    this.counts = { requests: 0, byMethod: {}, rateLimited: 0, refusedOnPurpose: 0 };
    this.#queue = [];
    this.#nextMessageId = 1000;
    this.#sendCount = 0;
    this.#floodWaitUntil = 0;
    this.delayMs = 0;
    this.transitMs = null;
    this.clock = this.#options.clock ?? Date.now;
    this.onArrival = null;
  }

  methods() {
    return this.requests.map((r) => r.method);
  }

  /** Each sendMessage that arrived, answered how it may: its chat, text and when (by `clock`). */
  messages() {
    return this.requests.flatMap((r, i) =>
      r.method === 'sendMessage'
        ? [{ chat_id: String(r.body.chat_id), text: String(r.body.text), at: this.arrivals[i] }]
        : [],
    );
  }

  /** Resolves once `count` sendMessage requests have arrived in all (since the last reset). */
  messagesArrived(count) {
    return new Promise((resolve) => {
      this.#waiting.push({ count, resolve });
      this.#settleWaiting();
    });
  }

  async close() {
    this.#server.closeAllConnections();
    await new Promise((resolve) => this.#server.close(() => resolve()));
  }

  #settleWaiting() {
    const arrived = this.requests.filter((r) => r.method === 'sendMessage').length;
    const still = [];
    for (const wait of this.#waiting) {
      if (wait.count <= arrived) wait.resolve();
      else still.push(wait);
    }
    this.#waiting = still;
  }

  /** Messages accepted within the second before `at` (they are in arrival order). */
  #inLastSecond(at) {
    let n = 0;
    for (let i = this.accepted.length - 1; i >= 0 && this.accepted[i].at > at - 1000; i -= 1) n += 1;
    return n;
  }

  async handle(req, res) {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    if (req.method === 'GET' && req.url === '/requests') return send(res, 200, this.requests);
    const match = /^\/bot([^/]+)\/(\w+)$/.exec(req.url ?? '');
    if (!match || req.method !== 'POST') {
      return send(res, 404, { ok: false, error_code: 404, description: 'Not Found' });
    }
    const [, token, method] = match;
    let body;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
    } catch {
      return send(res, 400, { ok: false, error_code: 400, description: 'Bad Request: invalid JSON' });
    }
    const transit = this.transitMs?.() ?? 0;
    if (transit > 0) await sleep(transit);
    const request = { token, method, body };
    const at = this.clock();
    this.requests.push(request);
    this.arrivals.push(at);
    this.counts.requests += 1;
    this.counts.byMethod[method] = (this.counts.byMethod[method] ?? 0) + 1;
    this.onArrival?.(request);
    this.#settleWaiting();

    let reply = this.#queue.shift();
    let floodWait = false;
    if (!reply && method === 'sendMessage') ({ reply, floodWait } = this.#chosenFailure(body, at));
    if (this.delayMs > 0) await sleep(this.delayMs);
    if (reply === 'hang') return; // never answers; close() ends the connection
    if (reply === 'garbage') {
      res.writeHead(502, { 'content-type': 'text/html' }).end('<html>Bad Gateway</html>');
      return;
    }
    if (reply) {
      if (method === 'sendMessage' && reply.body?.ok === false) {
        const { error_code, description, parameters } = reply.body;
        this.refused.push({
          at,
          chat_id: String(body.chat_id),
          error_code,
          description,
          ...(parameters?.retry_after && { retry_after: parameters.retry_after }),
          flood_wait: floodWait,
        });
      }
      return send(res, reply.status, reply.body);
    }
    if (method !== 'sendMessage') return send(res, 200, { ok: true, result: true });
    if (this.#options.limit && this.#inLastSecond(at) >= TELEGRAM_PER_SECOND) {
      this.counts.rateLimited += 1;
      const { status, body: answer } = tooManyRequests(1);
      return send(res, status, answer);
    }
    this.#nextMessageId += 1;
    this.accepted.push({ at, chat_id: String(body.chat_id), text: body.text });
    return send(res, 200, {
      ok: true,
      result: {
        message_id: this.#nextMessageId,
        date: Math.floor(Date.now() / 1000),
        chat: { id: Number(body.chat_id) || -1001234567890, type: 'supergroup', title: 'Fake chat' },
        text: body.text,
      },
    });
  }

  /**
   * The refusal `failures` chooses for this message, or the 429 of a flood wait it asked for (floodWait),
   * or no reply.
   */
  #chosenFailure(body, at) {
    const { failures } = this.#options;
    if (!failures) return { reply: null, floodWait: false };
    this.#sendCount += 1;
    const waiting = at < this.#floodWaitUntil;
    const failure = waiting
      ? tooManyRequests(Math.ceil((this.#floodWaitUntil - at) / 1000))
      : failures({ chat_id: String(body.chat_id), text: body.text }, this.#sendCount);
    if (!failure) return { reply: null, floodWait: false };
    const retryAfter = failure.body?.parameters?.retry_after;
    if (retryAfter && !waiting) this.#floodWaitUntil = at + retryAfter * 1000;
    this.counts.refusedOnPurpose += 1;
    return { reply: failure, floodWait: waiting };
  }
}

function send(res, status, body) {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
