import type { LimitsOptions } from './allowance/limits-options.js';
import type { ConfigOptions } from './config.js';
import type { FetchLike } from './http.js';
import type { QueueOptions, QueueStats } from './queue.js';
import type { ActiveLock, BudgetStatus } from './wire.js';

export interface LumiOptions {
  /** Lumi's address, e.g. `https://lumi.example.com`. */
  url: string;
  /**
   * An API key (`lumi_…`) with `ingest:write`, plus `config:read` for `config`, `messages:send` for `send`
   * and `allowance:read` for `allow` and `allowance`.
   */
  apiKey: string;
  /** Seconds between heartbeats while started. Default 30 (Lumi calls a bot silent after 120). */
  heartbeatSeconds?: number;
  /** The `telegram_status` of each heartbeat. Default "connected". */
  telegramStatus?: () => string;
  /** The locks the bot holds now, sent with each heartbeat. */
  activeLocks?: () => ActiveLock[];
  /** Batching, back-pressure and retries of the events (see QueueOptions for the defaults). */
  queue?: Partial<QueueOptions>;
  /** Time limit of one request to Lumi. Default 10,000 ms. */
  requestTimeoutMs?: number;
  config?: ConfigOptions;
  /**
   * The local checks of `allow()` (docs/bot-developers/limits.md). Given (`{}` for the defaults), `start()`
   * reads the limits at once; left out, they are read on the first `allow()`.
   */
  limits?: LimitsOptions;
  /** The `source` of errors that name neither a source nor a feature. Default "bot". */
  errorSource?: string;
  /**
   * Told about every problem reporting meets (Lumi unreachable, events refused, an unreadable
   * configuration), once per change; by default a line on the console. Reporting never throws at the bot.
   */
  onError?: (error: Error) => void;
  /** A fetch of your own (a proxy, a test). Default the global fetch. */
  fetch?: FetchLike;
}

export interface LumiStats extends QueueStats {
  /** The token budgets of Lumi's last answer. */
  budgets: BudgetStatus[];
}
