import { randomUUID } from 'node:crypto';
import { backoffMs, LumiError, requestJson, type HttpOptions } from './http.js';
import type { Delivery, DeliveryRequest } from './wire.js';

/**
 * Asks Lumi to send a message made from one of its templates (`POST /api/v1/messaging/deliveries`,
 * docs/bot-developers/deliveries.md): Lumi renders and checks it at once and its sender posts it within
 * Telegram's limits. Needs an API key with `messages:send`.
 */
export interface SendInput {
  /** The template's name, or its id. */
  template: string | number;
  /** Template variables. */
  data?: Record<string, unknown>;
  /** Another channel (its id in Lumi) than the template's own. */
  channel?: number;
  /** A forum topic (its id in Lumi) of the channel, or of the template's channel. */
  topic?: number;
  /**
   * The same key within 24 hours gets the first delivery back instead of a second message. When left out,
   * the SDK makes one for this call, so its own retries never send twice.
   */
  idempotencyKey?: string;
  /** Not before this time. */
  sendAt?: Date | string;
}

export interface SendOptions {
  /** Tries in all when Lumi cannot be reached or answers 429/5xx. Default 3. */
  attempts?: number;
  signal?: AbortSignal;
}

/**
 * A send Lumi turned down: `status` 422 with `deliveryId` when it kept the refusal as a `refused`
 * delivery (a template that does not render, a disabled channel …), 422 without for an unknown template
 * or channel, 403 for a key without `messages:send`.
 */
export class DeliveryRefused extends LumiError {
  override name = 'DeliveryRefused';
  get deliveryId(): number | undefined {
    const body = this.body as { delivery_id?: unknown } | undefined;
    return typeof body?.delivery_id === 'number' ? body.delivery_id : undefined;
  }
}

export function deliveryRequest(input: SendInput, idempotencyKey: string): DeliveryRequest {
  const request: DeliveryRequest =
    typeof input.template === 'number' ? { template_id: input.template } : { template_name: input.template };
  if (input.data !== undefined) request.data = input.data;
  if (input.channel !== undefined) request.channel_id = input.channel;
  if (input.topic !== undefined) request.topic_id = input.topic;
  request.idempotency_key = idempotencyKey;
  if (input.sendAt !== undefined) {
    request.send_at = typeof input.sendAt === 'string' ? input.sendAt : input.sendAt.toISOString();
  }
  return request;
}

/** Queues the delivery; resolves with it (status `queued`, or as it is by now when the key was seen). */
export async function sendDelivery(
  http: HttpOptions,
  input: SendInput,
  options: SendOptions = {},
): Promise<Delivery> {
  const body = deliveryRequest(input, input.idempotencyKey ?? randomUUID());
  const attempts = Math.max(1, options.attempts ?? 3);
  for (let attempt = 1; ; attempt += 1) {
    try {
      const answer = await requestJson<Delivery>(http, 'POST', '/api/v1/messaging/deliveries', {
        body,
        signal: options.signal,
      });
      return answer.body;
    } catch (error) {
      const failure = error as LumiError;
      if (!failure.retryable) {
        throw new DeliveryRefused(failure.message, failure.status, failure.retryAfterMs, failure.body);
      }
      if (attempt >= attempts || options.signal?.aborted) throw failure;
      const wait = failure.retryAfterMs ?? backoffMs(attempt, 500, 5000);
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}
