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
