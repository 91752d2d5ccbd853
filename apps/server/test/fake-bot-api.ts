import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local HTTP server that behaves like the Telegram Bot API (POST /bot<token>/<method> with a JSON body,
 * answering {ok, result} or {ok: false, error_code, description, parameters}). It records every request
 * and when it arrived, by its own clock, as Telegram would see it, and answers with whatever a test queued,
 * then with success.
 */

export interface BotApiRequest {
  token: string;
  method: string;
  body: Record<string, unknown>;
}

export type BotApiReply = { status: number; body: unknown } | 'hang' | 'garbage';

export class FakeBotApi {
  readonly requests: BotApiRequest[] = [];
  /** When each request arrived (by `clock`), in the order of `requests`. */
  readonly arrivals: number[] = [];
  private queue: BotApiReply[] = [];
  private nextMessageId = 1000;
  private waiting: { count: number; resolve: () => void }[] = [];
  /** How long every answer takes after the request arrived (a slow Telegram). */
  delayMs = 0;
  /**
   * How long a request takes to arrive after this server got it, drawn for each: time on the way to
   * Telegram that varies, as the receiver's timestamps show it. None by default.
   */
  transitMs: (() => number) | null = null;
  /** The receiver's clock (ms since the epoch); a test with a clock of its own passes it here. */
  clock: () => number = Date.now;
  /** Called as each request arrives, before it is answered (e.g. to move a test's clock on). */
  onArrival: ((request: BotApiRequest) => void) | null = null;

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<FakeBotApi> {
    const holder: { api?: FakeBotApi } = {};
    const server = createServer((req, res) => void holder.api?.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    holder.api = new FakeBotApi(server, `http://127.0.0.1:${port}`);
    return holder.api;
  }

  /** The next requests get these answers, in order; the ones after them succeed. */
  respond(...replies: BotApiReply[]): void {
    this.queue.push(...replies);
  }

  /** Forgets the requests, queued answers and settings; message ids start again at 1001. */
  reset(): void {
    this.requests.length = 0;
    this.arrivals.length = 0;
    this.queue = [];
    this.nextMessageId = 1000;
    this.delayMs = 0;
    this.transitMs = null;
    this.clock = Date.now;
    this.onArrival = null;
  }

  methods(): string[] {
    return this.requests.map((r) => r.method);
  }

  /** Each sendMessage that arrived: its chat and when (by `clock`), in the order they arrived. */
  messages(): { chat_id: string; text: string; at: number }[] {
    return this.requests.flatMap((r, i) =>
      r.method === 'sendMessage'
        ? [{ chat_id: String(r.body.chat_id), text: String(r.body.text), at: this.arrivals[i]! }]
        : [],
    );
  }

  /** Resolves once `count` sendMessage requests have arrived in all (since the last reset). */
  messagesArrived(count: number): Promise<void> {
    return new Promise((resolve) => {
      this.waiting.push({ count, resolve });
      this.settleWaiting();
    });
  }

  private settleWaiting() {
    const arrived = this.requests.filter((r) => r.method === 'sendMessage').length;
    const still: typeof this.waiting = [];
    for (const wait of this.waiting) {
      if (wait.count <= arrived) wait.resolve();
      else still.push(wait);
    }
    this.waiting = still;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const match = /^\/bot([^/]+)\/(\w+)$/.exec(req.url ?? '');
    if (!match || req.method !== 'POST') {
      return this.send(res, 404, { ok: false, error_code: 404, description: 'Not Found' });
    }
    const [, token, method] = match as unknown as [string, string, string];
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
    const transit = this.transitMs?.() ?? 0;
    if (transit > 0) await new Promise((resolve) => setTimeout(resolve, transit));
    const request = { token, method, body };
    this.requests.push(request);
    this.arrivals.push(this.clock());
    this.onArrival?.(request);
    this.settleWaiting();

    const reply = this.queue.shift();
    if (this.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    if (reply === 'hang') return; // never answers; close() ends the connection
    if (reply === 'garbage') {
      res.writeHead(502, { 'content-type': 'text/html' }).end('<html>Bad Gateway</html>');
      return;
    }
    if (reply) return this.send(res, reply.status, reply.body);
    if (method === 'sendMessage') {
      this.nextMessageId += 1;
      return this.send(res, 200, {
        ok: true,
        result: {
          message_id: this.nextMessageId,
          date: Math.floor(Date.now() / 1000),
          chat: { id: -1001234567890, type: 'supergroup', title: 'Test' },
          text: body.text,
        },
      });
    }
    return this.send(res, 200, { ok: true, result: true });
  }

  private send(res: ServerResponse, status: number, body: unknown) {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  }
}

export const tooManyRequests = (retryAfter: number): BotApiReply => ({
  status: 429,
  body: {
    ok: false,
    error_code: 429,
    description: `Too Many Requests: retry after ${retryAfter}`,
    parameters: { retry_after: retryAfter },
  },
});

export const badRequest = (description: string): BotApiReply => ({
  status: 400,
  body: { ok: false, error_code: 400, description },
});

export const forbidden = (
  description = 'Forbidden: bot was kicked from the supergroup chat',
): BotApiReply => ({
  status: 403,
  body: { ok: false, error_code: 403, description },
});

export const serverError = (): BotApiReply => ({
  status: 502,
  body: { ok: false, error_code: 502, description: 'Bad Gateway' },
});
