import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../../db/database.js';
import type { DeliveryRow } from '../../../db/messaging-tables.js';
import { lockForTransaction } from '../../../db/locks.js';
import { isoAfter, isoTime, type Clock } from '../../../lib/time.js';
import type { ChannelsService } from '../channels/channels.service.js';
import type { TelegramClient } from '../telegram/telegram-client.js';
import { DeliveryDispatch, type Claimed } from './delivery-dispatch.js';
import * as repo from './send-attempts.repository.js';
import {
  answeredBy,
  earliestStart,
  isGroup,
  pacingOf,
  pastSend,
  SPACING_TOLERANCE_MS,
  type Pacing,
} from './send-pacing.js';
import { SENDER_DEFAULTS, type SenderSettings, type SendReport } from './sender-settings.js';

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

/**
 * The sender (docs/bot-developers/deliveries.md): every instance runs one. Each round it marks deliveries that an
 * instance stopped sending as unknown (or queues them again when their send never started), then looks at
 * the next due delivery of each chat. Each send starts in a transaction of its own, under one
 * database-wide lock: it checks Telegram's limits against the attempts every instance records, and
 * records its own attempt (`sending`) before its request goes out, so the limits hold for the bot however
 * many instances send, and `unknown` only ever means "Telegram may have it". The request is sent outside
 * the lock and its outcome recorded when Telegram answers (delivery-dispatch.ts). A 429 pauses the whole bot
 * for its retry_after.
 */
export class DeliverySender {
  private loop: Promise<void> | null = null;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly sleeps = new Set<{ wakeable: boolean; end: () => void }>();
  private stopped = false;
  /** Something was queued while a round ran: the round ends early, so the next one sees it. */
  private woken = false;
  private readonly pacing: Pacing;
  /** Sends what a round claimed and records the answers. */
  private readonly dispatch: DeliveryDispatch;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: Clock,
    private readonly instanceId: string,
    telegram: TelegramClient,
    channels: ChannelsService,
    report: SendReport,
    private readonly log: Logger,
    private readonly settings: SenderSettings = SENDER_DEFAULTS,
  ) {
    this.pacing = pacingOf(settings);
    this.dispatch = new DeliveryDispatch(db, now, instanceId, telegram, channels, report, log, settings);
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
        const sending = this.dispatch.send(result).finally(() => {
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
}
