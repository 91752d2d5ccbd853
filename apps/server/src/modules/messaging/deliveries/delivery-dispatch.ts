import type { MessageEntity } from '@grammyjs/types';
import type { DeliveryAttemptOutcome } from '@lumi/contract';
import type { Kysely, Updateable } from 'kysely';
import type { Database } from '../../../db/database.js';
import type { DeliveriesTable, DeliveryRow } from '../../../db/messaging-tables.js';
import { isoAfter, isoTime, type Clock } from '../../../lib/time.js';
import type { ChannelsService } from '../channels/channels.service.js';
import { TelegramError, toChatId, type TelegramClient } from '../telegram/telegram-client.js';
import { partsOf } from './deliveries.repository.js';
import * as sending from './send-attempts.repository.js';
import type { SenderSettings, SendReport } from './sender-settings.js';

interface Logger {
  warn(details: object, message: string): void;
  info(details: object, message: string): void;
}

/** A delivery the sender claimed: its send started, its attempt recorded as `sending`. */
export interface Claimed {
  delivery: DeliveryRow;
  attemptId: number;
  attempt: number;
}

/**
 * A claimed delivery's send and what came of it (docs/bot-developers/deliveries.md; the "Settle" stage of
 * ./README.md): the request to Telegram, outside any lock, and the answer recorded on the attempt and the
 * delivery: sent (and pinned when asked), queued again with a backoff, the whole bot paused for a 429's
 * retry_after, or failed. The sender (delivery-sender.ts) decides when a delivery may go.
 */
export class DeliveryDispatch {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: Clock,
    private readonly instanceId: string,
    private readonly telegram: TelegramClient,
    private readonly channels: ChannelsService,
    private readonly report: SendReport,
    private readonly log: Logger,
    private readonly settings: SenderSettings,
  ) {}

  /**
   * Sends a claimed delivery (its next part, for one sent in parts) and records what Telegram answered;
   * never throws (a failure to record is logged).
   */
  async send(claimed: Claimed): Promise<void> {
    const { delivery } = claimed;
    const chatId = toChatId(delivery.chat_id);
    // A message sent in parts sends its next part, with its entities (docs/bot-developers/deliveries.md,
    // "Long messages"); each part is an attempt of its own, paced as any send to the chat.
    const parts = partsOf(delivery);
    const part = parts[delivery.parts_sent ?? 0];
    const started = performance.now();
    try {
      const message = await this.telegram.call('sendMessage', {
        chat_id: chatId,
        ...(part
          ? // Telegram reads only the id of a text mention's user it is sent (Bot API, MessageEntity).
            { text: part.text, entities: part.entities as MessageEntity[] }
          : { text: delivery.text, parse_mode: delivery.parse_mode }),
        ...(delivery.message_thread_id !== null && { message_thread_id: delivery.message_thread_id }),
        link_preview_options: { is_disabled: delivery.disable_web_preview === 1 },
        disable_notification: delivery.disable_notification === 1,
      });
      const latencyMs = performance.now() - started;
      this.report({ ok: true, latencyMs, error: null });
      const sentParts = (delivery.parts_sent ?? 0) + 1;
      // The first part stands for the message: its id is kept and it is the one pinned.
      const firstId = sentParts === 1 ? message.message_id : Number(delivery.telegram_message_id);
      if (sentParts < parts.length) {
        await this.record(claimed, 'sent', latencyMs, null, {
          status: 'queued',
          parts_sent: sentParts,
          telegram_message_id: firstId,
          next_attempt_at: isoTime(this.now()),
          // A part sent is not a failed try: the next part has the delivery's tries.
          attempts: claimed.attempt - 1,
        });
        return;
      }
      const pinError = delivery.pin === 1 ? await this.pin(chatId, firstId, delivery) : null;
      await this.record(claimed, 'sent', latencyMs, null, {
        status: 'sent',
        ...(part && { parts_sent: sentParts }),
        telegram_message_id: firstId,
        pinned: delivery.pin === 1 && pinError === null ? 1 : 0,
        error: pinError === null ? null : `Sent, but Telegram did not pin it: ${pinError}`,
        sent_at: isoTime(this.now()),
      });
      await this.channels.setSendProblem(delivery.channel_id, delivery.chat_id, null);
    } catch (error) {
      const latencyMs = performance.now() - started;
      if (!(error instanceof TelegramError)) {
        this.log.warn({ err: error, delivery: delivery.id }, 'a delivery could not be recorded');
        return;
      }
      this.report({ ok: false, latencyMs, error: error.message });
      await this.failed(claimed, error, latencyMs).catch((failure: unknown) =>
        this.log.warn({ err: failure, delivery: delivery.id }, 'a delivery outcome could not be recorded'),
      );
    }
  }

  /** Pins a sent message; the reason when Telegram refused, null when pinned. */
  private async pin(
    chatId: number | string,
    messageId: number,
    delivery: DeliveryRow,
  ): Promise<string | null> {
    try {
      await this.telegram.call('pinChatMessage', {
        chat_id: chatId,
        message_id: messageId,
        disable_notification: delivery.disable_notification === 1,
      });
      return null;
    } catch (error) {
      if (!(error instanceof TelegramError)) throw error;
      return error.message;
    }
  }

  private async failed(claimed: Claimed, error: TelegramError, latencyMs: number): Promise<void> {
    const { delivery } = claimed;
    const nowMs = this.now();
    const now = isoTime(nowMs);
    if (error.reason === 'rate_limited') {
      const waitMs = Math.max(error.retryAfterSeconds ?? 1, 1) * 1000;
      await sending.pauseUntil(this.db, isoAfter(waitMs, nowMs), error.message);
      await this.record(claimed, 'rate_limited', latencyMs, error, {
        status: 'queued',
        next_attempt_at: isoAfter(waitMs, nowMs),
        // A 429 is Telegram pacing the bot, not a failed try: it does not use up the delivery's tries.
        attempts: claimed.attempt - 1,
      });
      this.log.info({ retry_after: waitMs / 1000 }, 'Telegram asked the bot to slow down: sending paused');
      return;
    }
    const retriable = ['network', 'timeout', 'server_error', 'bad_response'].includes(error.reason);
    const age = nowMs - Date.parse(delivery.send_at);
    if (retriable && claimed.attempt < this.settings.maxAttempts && age < this.settings.maxAgeMs) {
      await this.record(claimed, 'retry', latencyMs, error, {
        status: 'queued',
        next_attempt_at: isoAfter(this.backoff(claimed.attempt), nowMs),
        error: error.message,
      });
      return;
    }
    const why = retriable
      ? `${error.message} (gave up after ${claimed.attempt} ${claimed.attempt === 1 ? 'try' : 'tries'})`
      : error.message;
    await this.record(claimed, 'failed', latencyMs, error, { status: 'failed', error: why });
    if (error.errorCode === 403) {
      await this.channels.setSendProblem(delivery.channel_id, delivery.chat_id, {
        message: error.message,
        at: now,
      });
    }
  }

  /** Exponential backoff with jitter: half to all of base × 2^(attempt − 1), at most maxBackoffMs. */
  private backoff(attempt: number): number {
    const full = Math.min(this.settings.baseBackoffMs * 2 ** (attempt - 1), this.settings.maxBackoffMs);
    return Math.round(full / 2 + Math.random() * (full / 2));
  }

  /**
   * Records an attempt's outcome and the delivery's next state, while this instance still holds it (or it
   * was called unknown meanwhile: what Telegram answered is the truth then).
   */
  private async record(
    claimed: Claimed,
    outcome: DeliveryAttemptOutcome,
    latencyMs: number,
    error: TelegramError | null,
    changes: Updateable<DeliveriesTable>,
  ): Promise<void> {
    const now = isoTime(this.now());
    await this.db.transaction().execute(async (trx) => {
      await sending.finishAttempt(trx, claimed.attemptId, outcome, {
        finished_at: now,
        duration_ms: Math.round(latencyMs),
        error_code: error?.errorCode ?? null,
        error: error?.message ?? null,
        retry_after_seconds: error?.retryAfterSeconds ?? null,
      });
      await sending.settleDelivery(trx, claimed.delivery.id, this.instanceId, changes, now);
    });
  }
}
