import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type {
  Allowance,
  BotConfig,
  BotLimitsSnapshot,
  BotUsageRequest,
  TelemetryEvent,
} from '../src/wire.js';

/**
 * A local stand-in for Lumi's bot-facing API, for the SDK's unit tests: `POST /api/ingest/events` (with
 * Lumi's dedupe on type, id and time), `GET /api/bot/config` (with the ETag), `POST
 * /api/v1/messaging/deliveries` (with the idempotency key), `POST /api/otlp/v1/traces` (kept as sent), and
 * the limits: `GET /api/bot/limits` (from `limits`), `POST /api/bot/allowance/usage` (each limit that
 * applies to each subject asked about, a chat's own limit replacing the default, with the usage set in
 * `usage` and the current UTC window; days and months in UTC only) and `POST /api/bot/allowance` (answers
 * `allowance`).
 * Queued replies answer the next requests instead: a status with a body and headers, `hang` (no answer)
 * or `store-then-fail` (stores the batch, then answers 502, as when an answer is lost on the way).
 * test/integration.test.ts runs the SDK against the real server.
 */

export interface Recorded {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: unknown;
  at: number;
}

export type Reply =
  { status: number; body?: unknown; headers?: Record<string, string> } | 'hang' | 'store-then-fail';

export class FakeLumi {
  readonly requests: Recorded[] = [];
  /** Every event stored once, in order. */
  readonly stored: TelemetryEvent[] = [];
  config: BotConfig = { version: 'v1', domains: { personalities: [] } };
  /** What `GET /api/bot/limits` answers, with `server_time` now. */
  limits: Omit<BotLimitsSnapshot, 'server_time'> = { limits: [], rules: [], timezone: 'UTC' };
  /** The usage in the current window by limit id and subject (`"7|-100"`); 0 when not set. */
  readonly usage = new Map<string, number>();
  allowance: Allowance = {
    allowed: true,
    reason: 'no_limits',
    limit: null,
    remaining: null,
    retry_after_seconds: null,
  };
  /** Drops every connection at once, as a server that is down behind its address. */
  offline = false;
  /** Event types it refuses one by one, as a server that does not know them. */
  unknownTypes = new Set<string>();
  readonly #keys = new Set<string>();
  readonly #deliveries = new Map<string, { id: number }>();
  readonly #replies: Array<{ path: string; reply: Reply }> = [];
  readonly #hanging: ServerResponse[] = [];

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<FakeLumi> {
    const holder: { fake?: FakeLumi } = {};
    const server = createServer((req, res) => void holder.fake!.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    holder.fake = new FakeLumi(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return holder.fake;
  }

  /** The next requests to `path` get these replies, in order. */
  reply(path: string, ...replies: Reply[]) {
    for (const reply of replies) this.#replies.push({ path, reply });
  }

  /** The ingest requests, each its list of events. */
  batches(): TelemetryEvent[][] {
    return this.requests
      .filter((r) => r.path === '/api/ingest/events')
      .map((r) => (r.body as { events: TelemetryEvent[] }).events);
  }

  etag(): string {
    return `"${createHash('sha256').update(JSON.stringify(this.config)).digest('hex').slice(0, 16)}"`;
  }

  async close() {
    for (const res of this.#hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    if (this.offline) return void req.socket.destroy();
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const path = (req.url ?? '').split('?')[0]!;
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      // OTLP protobuf or other bytes: kept as text.
    }
    this.requests.push({ method: req.method ?? '', path, headers: req.headers, body, at: Date.now() });
    const queued = this.#replies.findIndex((r) => r.path === path);
    const reply = queued >= 0 ? this.#replies.splice(queued, 1)[0]!.reply : null;
    if (reply === 'hang') return void this.#hanging.push(res);
    if (reply && reply !== 'store-then-fail') return send(res, reply.status, reply.body ?? {}, reply.headers);
    if (req.headers.authorization !== 'Bearer lumi_test')
      return send(res, 401, { detail: 'Unknown API key' });

    if (path === '/api/ingest/events' && req.method === 'POST') {
      const result = this.ingest((body as { events: TelemetryEvent[] }).events);
      return reply === 'store-then-fail' ? send(res, 502, 'Bad Gateway') : send(res, 200, result);
    }
    if (path === '/api/bot/config' && req.method === 'GET') {
      const etag = this.etag();
      // With a Content-Length of 4 ("null"), as Lumi's 304 has it.
      if (req.headers['if-none-match'] === etag) return send(res, 304, null, { etag, 'content-length': '4' });
      return send(res, 200, this.config, { etag });
    }
    if (path === '/api/v1/messaging/deliveries' && req.method === 'POST') {
      const request = body as { idempotency_key: string; template_name?: string };
      const known = this.#deliveries.get(request.idempotency_key);
      if (known) return send(res, 200, known);
      const delivery = { id: this.#deliveries.size + 1, status: 'queued', ...request };
      this.#deliveries.set(request.idempotency_key, delivery);
      return send(res, 202, delivery);
    }
    if (path === '/api/otlp/v1/traces') return send(res, 200, {});
    if (path === '/api/bot/limits' && req.method === 'GET') {
      return send(res, 200, { ...this.limits, server_time: new Date().toISOString() });
    }
    if (path === '/api/bot/allowance/usage' && req.method === 'POST') {
      return send(res, 200, this.usageOf(body as BotUsageRequest));
    }
    if (path === '/api/bot/allowance' && req.method === 'POST') return send(res, 200, this.allowance);
    return send(res, 404, { detail: 'Not found' });
  }

  private usageOf(request: BotUsageRequest) {
    const now = Date.now();
    const limits = this.limits.limits;
    const applying = (kind: 'chat' | 'user' | 'feature', subject: string) => {
      const own = limits.filter((l) => l.scope === kind && l.subject === subject);
      const defaults = limits.filter(
        (l) => l.scope === `each_${kind}` && !own.some((o) => o.metric === l.metric && o.window === l.window),
      );
      return [...own, ...defaults].map((limit) => {
        const [start, end] = utcWindow(limit.window, now);
        return {
          limit_id: limit.id,
          subject,
          used: this.usage.get(`${limit.id}|${subject}`) ?? 0,
          amount: limit.amount,
          window_start: new Date(start).toISOString(),
          window_end: new Date(end).toISOString(),
        };
      });
    };
    return {
      usage: [
        ...(request.chat_ids ?? []).flatMap((id) => applying('chat', id)),
        ...(request.user_ids ?? []).flatMap((id) => applying('user', id)),
        ...(request.features ?? []).flatMap((name) => applying('feature', name)),
      ],
      server_time: new Date(now).toISOString(),
    };
  }

  private ingest(events: TelemetryEvent[]) {
    const rejected: Array<{ index: number; detail: string }> = [];
    let accepted = 0;
    let duplicates = 0;
    events.forEach((event, index) => {
      if (this.unknownTypes.has(event.type))
        return void rejected.push({ index, detail: 'type: Invalid input' });
      const key = `${event.type}:${event.id}:${event.ts}`;
      if (this.#keys.has(key)) return void (duplicates += 1);
      this.#keys.add(key);
      this.stored.push(event);
      accepted += 1;
    });
    return {
      accepted,
      duplicates,
      rejected,
      budgets: [{ provider: 'openai', usage_percentage: 120, exceeded: true }],
    };
  }
}

/** The current minute, hour, day or month in UTC: [start, end) in ms. */
function utcWindow(window: 'minute' | 'hour' | 'day' | 'month', now: number): [number, number] {
  const d = new Date(now);
  if (window === 'month') {
    return [
      Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1),
      Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1),
    ];
  }
  const size = { minute: 60_000, hour: 3_600_000, day: 86_400_000 }[window];
  const start = Math.floor(now / size) * size;
  return [start, start + size];
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(status === 304 ? undefined : typeof body === 'string' ? body : JSON.stringify(body));
}
