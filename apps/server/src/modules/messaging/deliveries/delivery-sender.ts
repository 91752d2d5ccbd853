import type { MessageEntity } from '@grammyjs/types';
import type { DeliveryAttemptOutcome } from '@lumi/contract';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../../db/database.js';
import type { DeliveryRow } from '../../../db/messaging-tables.js';
import { lockForTransaction } from '../../../db/locks.js';
import { isoAfter, isoTime, type Clock } from '../../../lib/time.js';
import type { ChannelsService } from '../channels/channels.service.js';
import { TelegramError, toChatId, type TelegramClient } from '../telegram/telegram-client.js';
import * as repo from './deliveries.repository.js';
import {
  answeredBy,
  earliestStart,
  isGroup,
  pacingOf,
  pastSend,
  SPACING_TOLERANCE_MS,
  type Pacing,
} from './send-pacing.js';

/**
 * Telegram's limits (https://core.telegram.org/bots/faq#my-bot-is-hitting-limits-how-do-i-avoid-this):
 * about one message a second to one chat, 20 a minute to one group or channel, 30 a second in all.
 */
export interface SendLimits {
  /** At most this many messages to all chats together in any second (`secondMs`). */
  perSecond: number;
  /** Two messages to one chat at least this far apart. */
  perChatGapMs: number;
  /** At most this many messages to one group or channel (a chat id starting with '-' or '@') in any minute. */
  perChatPerMinute: number;
  /** Telegram's second and minute (1,000 and 60,000 ms); tests shrink them to run the same pacing sooner. */
  secondMs?: number;
  minuteMs?: number;
}
export const TELEGRAM_LIMITS: SendLimits = { perSecond: 30, perChatGapMs: 1000, perChatPerMinute: 20 };

export interface SenderSettings {
  limits: SendLimits;
  /** LUMI_DELIVERY_MAX_ATTEMPTS: tries of a delivery whose sends fail in a way worth retrying. */
  maxAttempts: number;
  /** LUMI_DELIVERY_MAX_AGE_MINUTES: after this long past its send time a delivery is not retried. */
  maxAgeMs: number;
  /** LUMI_DELIVERY_LEASE_SECONDS: how long a send may take before another instance calls it unknown. */
  leaseMs: number;
  /**
   * How long after it started a send may still reach Telegram: more than the Telegram client's timeout
   * (10 s), and never more than `leaseMs` (a send taking longer is not waited for). Until it is answered, a
   * send counts against the limits as if it could arrive any time up to then; so does one whose instance
   * stopped before the answer (`unknown`).
   */
  inFlightMs: number;
  /** How often the sender looks for due deliveries (it is also woken when one is queued here). */
  pollMs: number;
  /** Backoff of the first retry; each next one doubles, up to `maxBackoffMs`, with jitter. */
  baseBackoffMs: number;
  maxBackoffMs: number;
}

export const SENDER_DEFAULTS: SenderSettings = {
  limits: TELEGRAM_LIMITS,
  maxAttempts: 5,
  maxAgeMs: 60 * 60_000,
  leaseMs: 60_000,
  inFlightMs: 15_000,
  pollMs: 200,
  baseBackoffMs: 2_000,
  maxBackoffMs: 5 * 60_000,
};

/** How the integrations panel hears of each send (the `telegram` service). */
export type SendReport = (call: { ok: boolean; latencyMs: number; error: string | null }) => void;

interface Logger {
  warn(details: object, message: string): void;
  info(details: object, message: string): void;
}

const UNKNOWN_ERROR =
  'The instance sending it stopped before Telegram answered: it may or may not have been sent. Check the chat, then retry it or leave it.';

/** Chats a round looks at, at most (each with its next due delivery). */
const ROUND_CHATS = 100;
/** The database-wide lock under which sends start and leases expire (engineering guide 15). */
const START_LOCK = 'lumi:delivery-claim';

interface Claimed {
  delivery: DeliveryRow;
  attemptId: number;
  attempt: number;
}

/**
 * The sender (docs/bot-developers/deliveries.md): every instance runs one. Each round it marks deliveries that an
 * instance stopped sending as unknown (or queues them again when their send never started), then looks at
 * the next due delivery of each chat. Each send starts in a transaction of its own, under one
 * database-wide lock: it checks Telegram's limits against the attempts every instance records, and
 * records its own attempt (`sending`) before its request goes out, so the limits hold for the bot however
 * many instances send, and `unknown` only ever means "Telegram may have it". The request is sent outside
 * the lock; its outcome is recorded when Telegram answers. A 429 pauses the whole bot for its retry_after.
 */
export class DeliverySender {
  private loop: Promise<void> | null = null;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly sleeps = new Set<{ wakeable: boolean; end: () => void }>();
  private stopped = false;
  /** Something was queued while a round ran: the round ends early, so the next one sees it. */
  private woken = false;
  private readonly pacing: Pacing;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: Clock,
    private readonly instanceId: string,
    private readonly telegram: TelegramClient,
    private readonly channels: ChannelsService,
    private readonly report: SendReport,
    private readonly log: Logger,
    private readonly settings: SenderSettings = SENDER_DEFAULTS,
  ) {
    this.pacing = pacingOf(settings);
  }

  start(): void {
    this.stopped = false;
    this.loop ??= this.run().finally(() => (this.loop = null));
  }

  /** Something was queued on this instance: look now rather than at the next poll. */
  wake(): void {
    if (!this.loop || this.stopped) return;
    this.woken = true;
    this.endIdleSleeps();
  }

  private endIdleSleeps(): void {
    for (const sleep of this.sleeps) if (sleep.wakeable) sleep.end();
  }

  /** Stops starting sends and waits for the sends in flight to be answered and recorded. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const sleep of this.sleeps) sleep.end();
    await this.loop;
    await Promise.all(this.inFlight);
  }

  /**
   * For tests that drive the sender without its loop (often with a clock that stands still): starts every
   * send the limits allow at the clock's time now, waiting for none of its turns but for the answers of
   * the sends it started (a chat's next message waits for the previous one's answer). Resolves once all of
   * them are recorded, with how many it started.
   */
  async runOnce(): Promise<number> {
    let total = 0;
    for (;;) {
      const { started } = await this.round(false);
      total += started;
      await Promise.all(this.inFlight);
      if (started === 0) return total;
    }
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      let delay = this.settings.pollMs;
      try {
        delay = (await this.round(true)).delay;
      } catch (error) {
        this.log.warn({ err: error }, 'the delivery sender could not start deliveries');
      }
      if (delay > 0 && !this.stopped && !this.woken) await this.sleep(delay, true);
    }
  }

  /** Sleeps `ms`; stop() ends it early, and so does wake() when `wakeable`. */
  private sleep(ms: number, wakeable: boolean): Promise<void> {
    return new Promise((resolve) => {
      const sleep = {
        wakeable,
        end: () => {
          clearTimeout(timer);
          this.sleeps.delete(sleep);
          resolve();
        },
      };
      const timer = setTimeout(sleep.end, ms);
      this.sleeps.add(sleep);
    });
  }

  /**
   * One round: expires leases, then starts the next due delivery of each chat in the order their chats
   * allow it. With `waiting`, it waits for turns up to pollMs away; without, it starts only what may go
   * now. Answers how many it started, and how long to wait before the next round.
   */
  private async round(waiting: boolean): Promise<{ started: number; delay: number }> {
    this.woken = false;
    const { pollMs } = this.settings;
    await this.expireLeases();
    const nowMs = this.now();
    const due = await repo.sendCandidates(this.db, isoTime(nowMs), ROUND_CHATS);
    if (due.length === 0) return { started: 0, delay: pollMs };
    const floor = nowMs - this.pacing.slackMs;
    const history = await repo.chatAttempts(
      this.db,
      new Map(due.map((d) => [d.chat_id, this.lookBack(d.chat_id, floor)])),
    );
    // Each chat's turn as far as its own limits go, soonest first; the bot's are checked when it starts.
    const turns = due
      .map((delivery) => ({ delivery, at: this.chatTurn(delivery.chat_id, history, floor) }))
      .sort((a, b) => a.at - b.at);
    let started = 0;
    for (const turn of turns) {
      for (;;) {
        if (this.stopped || this.woken) return { started, delay: 0 };
        const wait = turn.at - this.now();
        if (wait > 0) {
          if (!waiting) break;
          if (wait > pollMs) return { started, delay: started > 0 ? 0 : pollMs };
          await this.sleep(wait, false);
          continue;
        }
        const result = await this.begin(turn.delivery);
        if (result === null) break;
        if ('at' in result) {
          if (!waiting) break;
          turn.at = result.at;
          continue;
        }
        started += 1;
        const sending = this.send(result).finally(() => {
          this.inFlight.delete(sending);
          // Its chat's next turn is known now: an idle loop looks again (a busy round goes on as it is).
          this.endIdleSleeps();
        });
        this.inFlight.add(sending);
        break;
      }
    }
    return { started, delay: 0 };
  }

  /** How far back a chat's attempts can still bear on a send starting at `floor` or later. */
  private lookBack(chatId: string, floor: number): string {
    const window = isGroup(chatId)
      ? Math.max(this.pacing.minuteMs, this.pacing.chatGapMs)
      : this.pacing.chatGapMs;
    return isoTime(floor - this.pacing.inFlightMs - window);
  }

  /** The earliest a send to `chatId` may start (from `from` on) as far as that chat's own limits go. */
  private chatTurn(chatId: string, attempts: repo.AttemptTimes[], from: number): number {
    const sends = attempts.filter((a) => a.chat_id === chatId).map(pastSend);
    const { inFlightMs } = this.pacing;
    // One at a time, the next one a gap after the previous one was answered.
    let at = earliestStart(sends, 1, this.pacing.chatGapMs, inFlightMs, from);
    if (isGroup(chatId)) {
      at = earliestStart(sends, this.settings.limits.perChatPerMinute, this.pacing.minuteMs, inFlightMs, at);
    }
    return at;
  }

  /**
   * The earliest a send may start (from `from` on) as far as the bot's limit per second goes, and the
   * turn the even spacing gives it (a spacing after the latest start).
   */
  private async botTurn(trx: Transaction<Database>, from: number): Promise<{ at: number; spaced: number }> {
    const { perSecond } = this.settings.limits;
    const { secondMs, spacingMs } = this.pacing;
    const latest = await repo.latestStarts(trx, perSecond);
    const spaced = latest.length === 0 ? from : Date.parse(latest[0]!) + spacingMs;
    if (latest.length < perSecond) return { at: from, spaced };
    // Only sends at or before the perSecond-th latest start can hold the window shut (earliestStart).
    const open = await repo.openAttempts(trx, {
      since: isoTime(from - this.pacing.inFlightMs - secondMs),
      upTo: latest[perSecond - 1]!,
      answeredSince: isoTime(from - secondMs),
    });
    let at = from;
    for (const send of open.map(pastSend)) {
      at = Math.max(at, answeredBy(send, this.pacing.inFlightMs) + secondMs);
    }
    return { at, spaced };
  }

  /**
   * Starts sending `delivery` if the limits allow it now, in one transaction under the lock: records the
   * attempt (`sending`, started at its turn) before the request goes out. Answers the claim; or the
   * earliest time to try again; or null when the delivery is no longer queued (another instance took it,
   * or it was cancelled).
   */
  private begin(delivery: DeliveryRow): Promise<Claimed | { at: number } | null> {
    return this.db.transaction().execute(async (trx) => {
      await lockForTransaction(trx, [START_LOCK]);
      const nowMs = this.now();
      // A send a little behind its turn is recorded at its turn (never after its request goes out), so
      // timers that fire late do not slow the pace; it is never recorded further back than slackMs.
      const floor = nowMs - this.pacing.slackMs;
      let from = Math.max(floor, Date.parse(delivery.next_attempt_at ?? delivery.send_at));
      const paused = (await repo.pausedUntil(trx))?.paused_until;
      if (paused) from = Math.max(from, Date.parse(paused));
      const bot = await this.botTurn(trx, from);
      const history = await repo.chatAttempts(
        trx,
        new Map([[delivery.chat_id, this.lookBack(delivery.chat_id, floor)]]),
      );
      // Telegram's limits allow it from `limited` on, exactly; the spacing is kept to the millisecond.
      const limited = this.chatTurn(delivery.chat_id, history, bot.at);
      if (limited > nowMs || bot.spaced > nowMs + SPACING_TOLERANCE_MS) {
        return { at: Math.max(limited, bot.spaced) };
      }
      // Never recorded later than now, so never after its request goes out.
      const at = Math.max(limited, Math.min(bot.spaced, nowMs));

      const now = isoTime(nowMs);
      const taken = await repo.startSending(trx, delivery.id, now, {
        owner: this.instanceId,
        expiresAt: isoAfter(this.settings.leaseMs, nowMs),
      });
      if (!taken) return null;
      const attemptId = await repo.insertAttempt(trx, {
        delivery_id: taken.id,
        attempt: taken.attempts,
        chat_id: taken.chat_id,
        instance: this.instanceId,
        outcome: 'sending',
        started_at: isoTime(at),
        part: taken.parts_sent === null ? null : taken.parts_sent + 1,
      });
      return { delivery: taken, attemptId, attempt: taken.attempts };
    });
  }

  /** Deliveries whose instance stopped holding them: unknown when their send had started, else queued. */
  private async expireLeases(): Promise<void> {
    const expired = await this.db.transaction().execute(async (trx) => {
      await lockForTransaction(trx, [START_LOCK]);
      return repo.expireLeases(trx, isoTime(this.now()), UNKNOWN_ERROR);
    });
    if (expired.unknown > 0) {
      this.log.warn(
        { deliveries: expired.unknown },
        'deliveries whose sender stopped mid-send are now unknown',
      );
    }
    if (expired.requeued > 0) {
      this.log.warn(
        { deliveries: expired.requeued },
        'deliveries whose sender stopped before sending them are queued again',
      );
    }
  }

  private async send(claimed: Claimed): Promise<void> {
    const { delivery } = claimed;
    const chatId = toChatId(delivery.chat_id);
    // A message sent in parts sends its next part, with its entities (docs/bot-developers/deliveries.md,
    // "Long messages"); each part is an attempt of its own, paced as any send to the chat.
    const parts = repo.partsOf(delivery);
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
      await repo.pauseUntil(this.db, isoAfter(waitMs, nowMs), error.message);
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
    changes: Parameters<typeof repo.transition>[3],
  ): Promise<void> {
    const now = isoTime(this.now());
    await this.db.transaction().execute(async (trx) => {
      await repo.finishAttempt(trx, claimed.attemptId, outcome, {
        finished_at: now,
        duration_ms: Math.round(latencyMs),
        error_code: error?.errorCode ?? null,
        error: error?.message ?? null,
        retry_after_seconds: error?.retryAfterSeconds ?? null,
      });
      await trx
        .updateTable('deliveries')
        .set({ ...changes, lease_owner: null, lease_expires_at: null, updated_at: now })
        .where('id', '=', claimed.delivery.id)
        .where('lease_owner', '=', this.instanceId)
        .where('status', 'in', ['sending', 'unknown'])
        .execute();
    });
  }
}
