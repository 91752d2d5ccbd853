import { setTimeout as sleep } from 'node:timers/promises';
import type { DeliveryAttemptOutcome } from '@lumi/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/database.js';
import type { DeliveryRow } from '../../../db/messaging-tables.js';
import { lockForTransaction } from '../../../db/locks.js';
import { isoAfter, isoTime, type Clock } from '../../../lib/time.js';
import type { ChannelsService } from '../channels/channels.service.js';
import { TelegramError, toChatId, type TelegramClient } from '../telegram/telegram-client.js';
import * as repo from './deliveries.repository.js';

/**
 * Telegram's limits (https://core.telegram.org/bots/faq#my-bot-is-hitting-limits-how-do-i-avoid-this):
 * about one message a second to one chat, 20 a minute to one group or channel, 30 a second in all.
 */
export interface SendLimits {
  perSecond: number;
  perChatGapMs: number;
  perChatPerMinute: number;
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

/** Slots are this much wider than 1/perSecond, so jitter on the way to Telegram cannot crowd a second. */
const PACING_MARGIN = 1.03;
/** How far ahead of now a round takes slots: about one second of sends. */
const CLAIM_AHEAD_MS = 1000;

interface Claimed {
  delivery: DeliveryRow;
  attemptId: number;
  attempt: number;
  /** The slot it is sent at (ms). */
  startedAt: number;
}

/**
 * The sender (issue 15, "The sender"): every instance runs one. Each round, under one database-wide lock,
 * it marks deliveries that an instance stopped sending as unknown, then claims due deliveries within
 * Telegram's limits: the limits are counted from the attempts every instance records, so they hold for
 * the bot however many instances send. A claimed delivery is leased to this instance and sent outside the
 * lock; its outcome is recorded when Telegram answers. A 429 pauses the whole bot for its retry_after.
 */
export class DeliverySender {
  private timer: NodeJS.Timeout | null = null;
  private round: Promise<void> | null = null;
  private readonly inFlight = new Set<Promise<void>>();
  private stopped = false;
  private wakeSoon = false;
  /** When this instance's latest send began (performance.now()). */
  private lastSendStart = -Infinity;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: Clock,
    private readonly instanceId: string,
    private readonly telegram: TelegramClient,
    private readonly channels: ChannelsService,
    private readonly report: SendReport,
    private readonly log: Logger,
    private readonly settings: SenderSettings = SENDER_DEFAULTS,
  ) {}

  start(): void {
    this.stopped = false;
    this.timer = setInterval(() => void this.runRound(), this.settings.pollMs);
    this.timer.unref();
    void this.runRound();
  }

  /** Something was queued on this instance: look now rather than at the next poll. */
  wake(): void {
    if (!this.timer || this.stopped) return;
    if (this.round) this.wakeSoon = true;
    else void this.runRound();
  }

  /** Stops claiming and waits for the sends in flight to be answered and recorded. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.round;
    await Promise.all(this.inFlight);
  }

  /** One round: for tests that drive the sender without its timer. Resolves once its sends are recorded. */
  async runOnce(): Promise<number> {
    const claimed = await this.claim();
    await Promise.all(claimed.map((c) => this.send(c)));
    return claimed.length;
  }

  private runRound(): Promise<void> {
    if (this.round || this.stopped) return this.round ?? Promise.resolve();
    this.round = this.claim()
      .then((claimed) => {
        for (const c of claimed) {
          const sending = this.send(c).finally(() => this.inFlight.delete(sending));
          this.inFlight.add(sending);
        }
      })
      .catch((error: unknown) =>
        this.log.warn({ err: error }, 'the delivery sender could not claim deliveries'),
      )
      .finally(() => {
        this.round = null;
        if (this.wakeSoon && !this.stopped) {
          this.wakeSoon = false;
          void this.runRound();
        }
      });
    return this.round;
  }

  /** Claims the due deliveries the limits allow now, leased to this instance. */
  private claim(): Promise<Claimed[]> {
    return this.db.transaction().execute(async (trx) => {
      await lockForTransaction(trx, ['lumi:delivery-claim']);
      const nowMs = this.now();
      const now = isoTime(nowMs);
      const expired = await repo.expireLeases(trx, now, UNKNOWN_ERROR);
      if (expired > 0)
        this.log.warn({ deliveries: expired }, 'deliveries whose sender stopped are now unknown');

      const paused = (await repo.pausedUntil(trx))?.paused_until;
      if (paused && paused > now) return [];
      const { limits } = this.settings;
      // Sends are paced a slot apart, so that no second anywhere holds more than perSecond of them, even
      // as they arrive at Telegram; a slot is taken at most CLAIM_AHEAD_MS ahead.
      const gapMs = (1000 / limits.perSecond) * PACING_MARGIN;
      const latest = await repo.latestAttemptStart(trx);
      let slot = Math.max(nowMs, latest ? Date.parse(latest) + gapMs : nowMs);
      const horizon = nowMs + CLAIM_AHEAD_MS;
      if (slot > horizon) return [];

      const due = await repo.dueDeliveries(trx, now, Math.ceil((horizon - slot) / gapMs) * 4 + 10);
      const windows = new Map(
        (await repo.chatWindows(trx, [...new Set(due.map((d) => d.chat_id))], isoAfter(-60_000, nowMs))).map(
          (w) => [w.chat_id, { count: Number(w.n), last: w.last ? Date.parse(String(w.last)) : 0 }],
        ),
      );
      const claimed: Claimed[] = [];
      for (const delivery of due) {
        if (slot > horizon) break;
        const window = windows.get(delivery.chat_id) ?? { count: 0, last: 0 };
        if (window.count >= limits.perChatPerMinute || slot - window.last < limits.perChatGapMs) continue;
        const attempt = delivery.attempts + 1;
        const taken = await repo.transition(trx, delivery.id, ['queued'], {
          status: 'sending',
          attempts: attempt,
          lease_owner: this.instanceId,
          lease_expires_at: isoAfter(this.settings.leaseMs, slot),
          updated_at: now,
        });
        if (!taken) continue;
        // The attempt starts at its slot: the rate windows of every instance count it from then.
        const attemptId = await repo.insertAttempt(trx, {
          delivery_id: delivery.id,
          attempt,
          chat_id: delivery.chat_id,
          instance: this.instanceId,
          outcome: 'sending',
          started_at: isoTime(slot),
        });
        windows.set(delivery.chat_id, { count: window.count + 1, last: slot });
        claimed.push({ delivery, attemptId, attempt, startedAt: slot });
        slot += gapMs;
      }
      return claimed;
    });
  }

  private async send(claimed: Claimed): Promise<void> {
    const { delivery } = claimed;
    const chatId = toChatId(delivery.chat_id);
    await this.pace(claimed.startedAt);
    const started = performance.now();
    try {
      const message = await this.telegram.call('sendMessage', {
        chat_id: chatId,
        text: delivery.text,
        parse_mode: delivery.parse_mode,
        ...(delivery.message_thread_id !== null && { message_thread_id: delivery.message_thread_id }),
        link_preview_options: { is_disabled: delivery.disable_web_preview === 1 },
        disable_notification: delivery.disable_notification === 1,
      });
      const latencyMs = performance.now() - started;
      this.report({ ok: true, latencyMs, error: null });
      const pinError = delivery.pin === 1 ? await this.pin(chatId, message.message_id, delivery) : null;
      await this.record(claimed, 'sent', latencyMs, null, {
        status: 'sent',
        telegram_message_id: message.message_id,
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

  /**
   * Waits for a send's slot, and then until at least one slot width has passed since this instance's
   * previous send began: a timer that fires late only delays a send, it never crowds two together.
   */
  private async pace(slot: number): Promise<void> {
    const wait = slot - this.now();
    if (wait > 0) await sleep(wait);
    const gapMs = (1000 / this.settings.limits.perSecond) * PACING_MARGIN;
    const at = Math.max(performance.now(), this.lastSendStart + gapMs);
    // Reserved before waiting, so sends that wake together take consecutive turns.
    this.lastSendStart = at;
    const behind = at - performance.now();
    if (behind > 0) await sleep(behind);
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
