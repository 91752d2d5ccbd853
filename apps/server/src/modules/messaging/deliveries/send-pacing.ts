import type * as repo from './send-attempts.repository.js';
import type { SenderSettings } from './sender-settings.js';

/**
 * Telegram's limits as the receiver sees them (Bot API FAQ: 30 messages a second in all, one a second per
 * chat, 20 a minute per group): the pure rules of the sender's pacing, kept apart from its database work.
 */

/**
 * Margins on Telegram's windows, as the sender counts them. Time on the way to Telegram is covered without
 * them (each window is counted from when Telegram answered, see earliestStart); they cover the clocks of
 * instances that differ a little. The bot's second gets the least (1,020 ms: each point of it costs the
 * bot 0.3 messages a second); a chat's gap (1,100 ms) and a group's minute (63 s) cost only the chats that
 * receive that much.
 */
const SECOND_MARGIN = 0.02;
const CHAT_GAP_MARGIN = 0.1;
const MINUTE_MARGIN = 0.05;
/**
 * A send whose spacing from the previous one falls short by no more than this goes now: times are kept to
 * the millisecond, and a timer may fire that much before the clock shows its time. Telegram's limits are
 * kept exactly; only the even spacing between sends gives way by this much.
 */
export const SPACING_TOLERANCE_MS = 1;

/** One earlier send as the limits count it: when it started and when it was answered (null: not yet). */
export interface PastSend {
  startedAt: number;
  answeredAt: number | null;
}

/**
 * The earliest time, from `from` on, at which one more send may start so that the receiver never sees
 * more than `limit` sends within `windowMs`, however long each took on the way.
 *
 * A send reaches Telegram after it started and before it was answered. So if the sends Telegram receives
 * within one window are S, and j is the one of them that started first, every other one of them started
 * at or after j started and before j was answered + windowMs. The rule "at most `limit` sends start
 * between a send's start and windowMs after its answer" therefore keeps every window at the receiver to
 * `limit`, with no assumption about latency or timers. A send not answered yet counts as answered
 * `inFlightMs` after it started (by then its request has timed out). `sends` are sorted by start.
 */
export function earliestStart(
  sends: readonly PastSend[],
  limit: number,
  windowMs: number,
  inFlightMs: number,
  from: number,
): number {
  let at = from;
  if (sends.length < limit) return at;
  // The sends with `limit` or more starting at or after them: each holds the window shut till it ends.
  const holding = sends[sends.length - limit]!.startedAt;
  for (const send of sends) {
    if (send.startedAt > holding) break;
    at = Math.max(at, answeredBy(send, inFlightMs) + windowMs);
  }
  return at;
}

/** When a send was answered, or (not answered) when it can no longer reach Telegram. */
export function answeredBy(send: PastSend, inFlightMs: number): number {
  return Math.min(send.answeredAt ?? Infinity, send.startedAt + inFlightMs);
}

/** Groups and channels: negative ids, or a public @username. Their limit per minute applies. */
export function isGroup(chatId: string): boolean {
  return chatId.startsWith('-') || chatId.startsWith('@');
}

/** An attempt's times as the limits count them: an `unknown` one was never answered. */
export function pastSend(row: Pick<repo.AttemptTimes, 'started_at' | 'finished_at' | 'outcome'>): PastSend {
  const answered = row.finished_at && row.outcome !== 'sending' && row.outcome !== 'unknown';
  return {
    startedAt: Date.parse(row.started_at),
    answeredAt: answered ? Date.parse(row.finished_at!) : null,
  };
}

/** The windows as counted, in whole milliseconds (the database keeps times to the millisecond). */
export interface Pacing {
  secondMs: number;
  chatGapMs: number;
  minuteMs: number;
  /** Between two sends' starts, at least: the bot's second spread evenly. */
  spacingMs: number;
  /** How far behind its turn a send may be recorded as started, so late timers do not slow the pace. */
  slackMs: number;
  /** How long after its start an unanswered send may still arrive (SenderSettings.inFlightMs). */
  inFlightMs: number;
}

export function pacingOf({ limits, inFlightMs, leaseMs }: SenderSettings): Pacing {
  const secondMs = Math.ceil((limits.secondMs ?? 1000) * (1 + SECOND_MARGIN));
  const spacingMs = Math.floor(secondMs / limits.perSecond);
  return {
    secondMs,
    chatGapMs: Math.ceil(limits.perChatGapMs * (1 + CHAT_GAP_MARGIN)),
    minuteMs: Math.ceil((limits.minuteMs ?? 60_000) * (1 + MINUTE_MARGIN)),
    spacingMs,
    slackMs: Math.floor(spacingMs / 4),
    inFlightMs: Math.min(inFlightMs, leaseMs),
  };
}
