import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ALERT_WEBHOOK_HEADERS } from '@lumi/contract';

/**
 * A local HTTP endpoint standing in for a webhook contact point's receiver: it records every request
 * (headers and the raw body) and answers with the statuses a test queued, then 200.
 */

export interface ReceivedHook {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export class WebhookReceiver {
  readonly received: ReceivedHook[] = [];
  private statuses: number[] = [];

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<WebhookReceiver> {
    const holder: { receiver?: WebhookReceiver } = {};
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const receiver = holder.receiver!;
        receiver.received.push({
          path: req.url ?? '',
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        });
        const status = receiver.statuses.shift() ?? 200;
        if (status >= 300 && status < 400) res.setHeader('location', '/elsewhere');
        res.writeHead(status, { 'content-type': 'text/plain' }).end(`answer ${status}`);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    holder.receiver = new WebhookReceiver(server, `http://127.0.0.1:${port}/hooks/lumi`);
    return holder.receiver;
  }

  /** The next requests are answered with these statuses, in order; the ones after them with 200. */
  respond(...statuses: number[]): void {
    this.statuses.push(...statuses);
  }

  reset(): void {
    this.received.length = 0;
    this.statuses = [];
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** Whether a received hook carries a valid signature of its body with `secret` (README, "Alerts"). */
export function signatureValid(hook: ReceivedHook, secret: string): boolean {
  const timestamp = hook.headers[ALERT_WEBHOOK_HEADERS.timestamp];
  const signature = hook.headers[ALERT_WEBHOOK_HEADERS.signature];
  if (typeof timestamp !== 'string' || typeof signature !== 'string') return false;
  const expected = createHmac('sha256', secret).update(`${timestamp}.${hook.body}`).digest('hex');
  return signature === `sha256=${expected}`;
}
