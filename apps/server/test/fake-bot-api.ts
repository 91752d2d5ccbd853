import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local HTTP server that behaves like the Telegram Bot API (POST /bot<token>/<method> with a JSON body,
 * answering {ok, result} or {ok: false, error_code, description, parameters}). It records every request
 * and answers with whatever a test queued, then with success.
 */

export interface BotApiRequest {
  token: string;
  method: string;
  body: Record<string, unknown>;
}

export type BotApiReply = { status: number; body: unknown } | 'hang' | 'garbage';

export class FakeBotApi {
  readonly requests: BotApiRequest[] = [];
  /** When each request arrived (ms since the epoch), in the order of `requests`. */
  readonly arrivals: number[] = [];
  private queue: BotApiReply[] = [];
  private nextMessageId = 1000;
  /** How long every answer takes (a slow Telegram). */
  delayMs = 0;

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

  /** Forgets the requests and queued answers; message ids start again at 1001. */
  reset(): void {
    this.requests.length = 0;
    this.arrivals.length = 0;
    this.queue = [];
    this.nextMessageId = 1000;
    this.delayMs = 0;
  }

  methods(): string[] {
    return this.requests.map((r) => r.method);
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
    this.requests.push({ token, method, body });
    this.arrivals.push(Date.now());

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
