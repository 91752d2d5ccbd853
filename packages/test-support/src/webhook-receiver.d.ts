import type { IncomingHttpHeaders } from 'node:http';

export interface ReceivedHook {
  path: string;
  /** Header names in lower case. */
  headers: IncomingHttpHeaders;
  /** The raw body, as signed. */
  body: string;
}

export class WebhookReceiver {
  /** Listens on a free port of 127.0.0.1; answers `status` (200 by default) unless a test queued others. */
  static start(options?: { status?: number }): Promise<WebhookReceiver>;
  private constructor();
  /** http://127.0.0.1:<port> */
  readonly origin: string;
  /** A URL on the receiver (path /hooks/lumi). */
  readonly url: string;
  readonly received: ReceivedHook[];
  /** What it answers when no status is queued. */
  status: number;
  /** A URL on this receiver whose path tells a test's contact points apart. */
  urlFor(path: string): string;
  /** What was posted to `path` so far, oldest first. */
  receivedAt(path: string): ReceivedHook[];
  /** The next requests are answered with these statuses, in order; the ones after them with `status`. */
  respond(...statuses: number[]): void;
  reset(): void;
  close(): Promise<void>;
}

/** Whether a received hook carries a valid signature of its body with `secret` (docs/bot-developers/alerts.md). */
export function signatureValid(
  hook: ReceivedHook,
  secret: string,
  headers: { timestamp: string; signature: string },
): boolean;
