// A webhook receiver for the alert specs: a tiny HTTP server that answers every POST with 204 and keeps
// each request (headers and the body exactly as sent, so a spec can check its signature).
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  path: string;
  /** Header names in lower case. */
  headers: http.IncomingHttpHeaders;
  /** The raw body, as signed. */
  body: string;
}

export interface WebhookReceiver {
  /** The URL to give a contact point; `path` tells the spec's contact points apart. */
  url: (path: string) => string;
  /** What was posted to `path` so far, oldest first. */
  received: (path: string) => ReceivedWebhook[];
  close: () => Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const requests: ReceivedWebhook[] = [];
  const server = http.createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      requests.push({ path: request.url ?? '', headers: request.headers, body });
      response.statusCode = 204;
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    received: (path) => requests.filter((request) => request.path === path),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
