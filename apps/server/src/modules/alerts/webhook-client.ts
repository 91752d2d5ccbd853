import { createHmac } from 'node:crypto';
import { ALERT_WEBHOOK_HEADERS, type AlertNotificationKind } from '@lumi/contract';

/** What one try of a webhook came to: sent, failed for good, or worth another try later. */
export type WebhookOutcome =
  | { status: 'sent'; responseStatus: number }
  | { status: 'failed'; responseStatus: number | null; error: string }
  | { status: 'retry'; responseStatus: number | null; error: string };

export interface SignedWebhook {
  url: string;
  secret: string;
  /** The JSON body, as sent and signed. */
  body: string;
  event: AlertNotificationKind;
  notificationId: number;
  nowMs: number;
  timeoutMs: number;
}

/**
 * The webhook client, as the Telegram client is Telegram's (docs/bot-developers/alerts.md, "Webhooks"):
 * POSTs a body signed `x-lumi-signature: sha256=<HMAC-SHA256 of "${timestamp}.${body}">`, never follows a
 * redirect, and reads the answer as a try's outcome: 2xx sent; 408, 429, 5xx, no answer or a time-out
 * worth another try; any other status failed.
 */
export async function postSignedWebhook(hook: SignedWebhook): Promise<WebhookOutcome> {
  const timestamp = String(Math.floor(hook.nowMs / 1000));
  const signature = createHmac('sha256', hook.secret).update(`${timestamp}.${hook.body}`).digest('hex');
  let response: Response;
  try {
    response = await fetch(hook.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Lumi-Alerts/1',
        [ALERT_WEBHOOK_HEADERS.timestamp]: timestamp,
        [ALERT_WEBHOOK_HEADERS.signature]: `sha256=${signature}`,
        [ALERT_WEBHOOK_HEADERS.event]: hook.event,
        [ALERT_WEBHOOK_HEADERS.notification]: String(hook.notificationId),
      },
      body: hook.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(hook.timeoutMs),
    });
  } catch (error) {
    const timedOut = error instanceof Error && error.name === 'TimeoutError';
    const reason = timedOut
      ? `No answer within ${hook.timeoutMs / 1000} s`
      : `Could not reach the webhook: ${describeFetchError(error)}`;
    return { status: 'retry', responseStatus: null, error: reason };
  }
  await response.body?.cancel().catch(() => undefined);
  const status = response.status;
  if (status >= 200 && status < 300) return { status: 'sent', responseStatus: status };
  if (status === 408 || status === 429 || status >= 500) {
    return { status: 'retry', responseStatus: status, error: `The webhook answered HTTP ${status}` };
  }
  const redirect = status >= 300 && status < 400 ? ' (redirects are not followed; use the final URL)' : '';
  return {
    status: 'failed',
    responseStatus: status,
    error: `The webhook answered HTTP ${status}${redirect}`,
  };
}

function describeFetchError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as Error & { cause?: unknown }).cause;
  if (cause instanceof Error) {
    const code = (cause as Error & { code?: string }).code;
    return code ? `${code} (${cause.message})` : cause.message;
  }
  return error.message;
}
