// A local HTTP endpoint standing in for the receiver of a webhook contact point: it records every request
// (headers and the body exactly as sent, so a test can check its signature) and answers with the statuses
// a test queued, then `status` (200 by default).
import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';

export class WebhookReceiver {
  /** Every request: { path, headers (names in lower case), body }, oldest first. */
  received = [];
  #statuses = [];
  #server;

  constructor(server, origin, status) {
    this.#server = server;
    this.status = status;
    this.origin = origin;
    this.url = `${origin}/hooks/lumi`;
  }

  static async start({ status = 200 } = {}) {
    const holder = {};
    const server = createServer((req, res) => {
      const chunks = [];
      req.on('data', (chunk) => chunks.push(chunk));
      req.on('end', () => {
        const receiver = holder.receiver;
        receiver.received.push({
          path: req.url ?? '',
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        });
        const answer = receiver.#statuses.shift() ?? receiver.status;
        if (answer >= 300 && answer < 400) res.setHeader('location', '/elsewhere');
        if (answer === 204) res.writeHead(answer).end();
        else res.writeHead(answer, { 'content-type': 'text/plain' }).end(`answer ${answer}`);
      });
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    holder.receiver = new WebhookReceiver(server, `http://127.0.0.1:${server.address().port}`, status);
    return holder.receiver;
  }

  /** A URL on this receiver whose path tells a test's contact points apart. */
  urlFor(path) {
    return `${this.origin}${path}`;
  }

  /** What was posted to `path` so far, oldest first. */
  receivedAt(path) {
    return this.received.filter((hook) => hook.path === path);
  }

  /** The next requests are answered with these statuses, in order; the ones after them with `status`. */
  respond(...statuses) {
    this.#statuses.push(...statuses);
  }

  reset() {
    this.received.length = 0;
    this.#statuses = [];
  }

  async close() {
    this.#server.closeAllConnections();
    await new Promise((resolve) => this.#server.close(() => resolve()));
  }
}

/**
 * Whether a received hook carries a valid signature of its body with `secret`: HMAC-SHA256 of
 * `<timestamp>.<body>`, as `sha256=<hex>` (docs/bot-developers/alerts.md). `headers` names the two headers
 * (ALERT_WEBHOOK_HEADERS of @lumi/contract).
 */
export function signatureValid(hook, secret, headers) {
  const timestamp = hook.headers[headers.timestamp];
  const signature = hook.headers[headers.signature];
  if (typeof timestamp !== 'string' || typeof signature !== 'string') return false;
  const expected = createHmac('sha256', secret).update(`${timestamp}.${hook.body}`).digest('hex');
  return signature === `sha256=${expected}`;
}
