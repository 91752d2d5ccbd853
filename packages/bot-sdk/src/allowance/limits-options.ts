/** The settings of the local checks (docs/bot-developers/limits.md, "Local checks"). */
export interface LimitsOptions {
  /**
   * What a check answers while there is no copy fresh enough to decide from (before the first arrives, or
   * once it is older than `staleAfterMs`): `open` allows, `closed` denies, both with reason `unavailable`.
   * Default `open`: Lumi being down does not stop the bot.
   */
  onUnavailable?: 'open' | 'closed';
  /** How often the limits, bans and allowlist entries are read again. Default 30,000 ms. */
  limitsRefreshMs?: number;
  /** How often the usage of the subjects checked recently is read again. Default 5,000 ms. */
  usageRefreshMs?: number;
  /** A copy older than this (Lumi unreachable since) decides nothing. Default 120,000 ms. */
  staleAfterMs?: number;
  /** A chat, user or feature not checked for this long is forgotten (its usage no longer read). Default 300,000 ms. */
  forgetAfterMs?: number;
  /** At most this many chats (and users, and features) are remembered; the longest unchecked go first. Default 20,000. */
  maxSubjects?: number;
}

export const LIMITS_DEFAULTS: Required<LimitsOptions> = {
  onUnavailable: 'open',
  limitsRefreshMs: 30_000,
  usageRefreshMs: 5_000,
  staleAfterMs: 120_000,
  forgetAfterMs: 300_000,
  maxSubjects: 20_000,
};

export interface LimitsStats {
  /** A copy fresh enough to decide from is held. */
  fresh: boolean;
  /** When the copy arrived, or null. */
  fetchedAt: Date | null;
  limits: number;
  rules: number;
  /** Chats, users and features whose usage is kept. */
  subjects: number;
  /** Where days and months begin (Lumi's LUMI_TIMEZONE), or null without a copy. */
  timezone: string | null;
}
