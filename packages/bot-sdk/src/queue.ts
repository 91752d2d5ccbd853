import { backoffMs, LumiError } from './http.js';
import type { IngestResult, TelemetryEvent } from './wire.js';

/**
 * The events on their way to Lumi. Adding one never waits and never throws: events wait in a bounded
 * queue and go out in batches, when a batch is full or `flushIntervalMs` after the first one came, one
 * request at a time. A batch that gets no answer, a 408, 429 or 5xx is sent again, unchanged (the ids and
 * times make Lumi count it once), after a growing wait or the `Retry-After` Lumi asked for. While Lumi is
 * down the queue keeps the newest `maxQueuedEvents` and counts the oldest it lets go as dropped.
 */

export interface QueueOptions {
  /** Events per request (Lumi takes up to 1,000). Default 500. */
  maxBatchEvents: number;
  /** Bytes per request (Lumi takes up to 1 MB). Default 512 KiB. */
  maxBatchBytes: number;
  /** How long an event may wait for its batch to fill. Default 5,000 ms. */
  flushIntervalMs: number;
  /** Events kept while Lumi cannot be reached, beyond the batch in flight. Default 10,000. */
  maxQueuedEvents: number;
  /** The first retry's wait (doubling each time, up to maxRetryDelayMs). Default 1,000 ms. */
  minRetryDelayMs: number;
  maxRetryDelayMs: number;
}

export const QUEUE_DEFAULTS: QueueOptions = {
  maxBatchEvents: 500,
  maxBatchBytes: 512 * 1024,
  flushIntervalMs: 5000,
  maxQueuedEvents: 10_000,
  minRetryDelayMs: 1000,
  maxRetryDelayMs: 60_000,
};

/** A `Retry-After` longer than this is taken as this. */
const MAX_RETRY_AFTER_MS = 10 * 60_000;

export interface QueueStats {
  /** Waiting, including the batch in flight. */
  queued: number;
  /** Stored by Lumi. */
  accepted: number;
  /** Already stored before (a retry whose first answer was lost). */
  duplicates: number;
  /** Refused by Lumi one by one (see onProblem); not sent again. */
  rejected: number;
  /** Let go unsent: the oldest ones while the queue was full, or a batch Lumi refused whole (401, 403, 413 …). */
  dropped: number;
  /** Requests that failed and will be (or were) tried again. */
  retries: number;
  /** When Lumi last took a batch. */
  lastSentAt: Date | null;
  /** Why the last request failed, until one succeeds. */
  lastError: LumiError | null;
}

interface Queued {
  event: TelemetryEvent;
  bytes: number;
}

export interface QueueHooks {
  send(events: TelemetryEvent[]): Promise<IngestResult>;
  onResult(result: IngestResult, events: TelemetryEvent[]): void;
  /** A request failed (retried or not), or Lumi is reachable again (null). */
  onProblem(error: LumiError | null, willRetry: boolean): void;
}

export class EventQueue {
  readonly #options: QueueOptions;
  readonly #hooks: QueueHooks;
  #pending: Queued[] = [];
  #inFlight: Queued[] = [];
  #timer: ReturnType<typeof setTimeout> | null = null;
  #timerAt = 0;
  #sending: Promise<void> | null = null;
  #attempt = 0;
  /** No request before this time (a backoff or Retry-After). */
  #notBefore = 0;
  #closed = false;
  readonly #stats: Omit<QueueStats, 'queued'> = {
    accepted: 0,
    duplicates: 0,
    rejected: 0,
    dropped: 0,
    retries: 0,
    lastSentAt: null,
    lastError: null,
  };

  constructor(options: Partial<QueueOptions>, hooks: QueueHooks) {
    this.#options = { ...QUEUE_DEFAULTS, ...options };
    this.#hooks = hooks;
  }

  stats(): QueueStats {
    return { ...this.#stats, queued: this.#pending.length + this.#inFlight.length };
  }

  push(event: TelemetryEvent): void {
    if (this.#closed) {
      this.#stats.dropped += 1;
      return;
    }
    this.#pending.push({ event, bytes: Buffer.byteLength(JSON.stringify(event)) + 1 });
    this.#trim();
    // A full batch goes at once (after the caller's synchronous code: a microtask, not a timer).
    if (this.#pending.length >= this.#options.maxBatchEvents) queueMicrotask(() => this.#drain(false));
    else this.#schedule(this.#options.flushIntervalMs);
  }

  /**
   * Sends everything queued now, retrying as usual, until the queue is empty or `timeoutMs` has passed;
   * resolves with how many events are still waiting (0: all sent). Never rejects.
   */
  async flush(timeoutMs = 5000): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    while (this.#pending.length + this.#inFlight.length > 0) {
      const now = Date.now();
      if (now >= deadline) break;
      if (this.#sending) {
        await race(this.#sending, deadline - now);
        continue;
      }
      if (this.#notBefore > now) {
        await sleep(Math.min(this.#notBefore, deadline) - now);
        continue;
      }
      this.#drain(true);
      if (!this.#sending) break;
    }
    return this.#pending.length + this.#inFlight.length;
  }

  /** Flushes (up to `timeoutMs`), then stops: later events are dropped. */
  async close(timeoutMs = 5000): Promise<number> {
    const left = await this.flush(timeoutMs);
    this.#closed = true;
    this.#clearTimer();
    return left;
  }

  /** Keeps the newest maxQueuedEvents waiting; the oldest go first. */
  #trim() {
    const excess = this.#pending.length - this.#options.maxQueuedEvents;
    if (excess > 0) {
      this.#pending.splice(0, excess);
      this.#stats.dropped += excess;
    }
  }

  #clearTimer() {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
  }

  /** Makes sure a send happens within `delayMs` (or once a backoff ends); an earlier one stays. */
  #schedule(delayMs: number) {
    if (this.#closed) return;
    const at = Math.max(Date.now() + delayMs, this.#notBefore);
    if (this.#timer && this.#timerAt <= at) return;
    this.#clearTimer();
    this.#timerAt = at;
    this.#timer = setTimeout(
      () => {
        this.#timer = null;
        this.#drain(true);
      },
      Math.max(0, at - Date.now()),
    );
    // Reporting never keeps the bot's process alive: flush() or close() at shutdown sends what is left.
    this.#timer.unref?.();
  }

  /** Sends batches one after another: all of them (`all`) or while a full one is waiting. */
  #drain(all: boolean) {
    if (this.#sending || this.#closed) return;
    if (Date.now() < this.#notBefore) return this.#schedule(0);
    this.#sending = this.#sendBatches(all).finally(() => {
      this.#sending = null;
      if (this.#pending.length > 0) this.#schedule(this.#options.flushIntervalMs);
    });
  }

  async #sendBatches(all: boolean) {
    while (this.#pending.length > 0 && (all || this.#pending.length >= this.#options.maxBatchEvents)) {
      this.#inFlight = this.#takeBatch();
      const events = this.#inFlight.map((q) => q.event);
      let result: IngestResult;
      try {
        result = await this.#hooks.send(events);
      } catch (caught) {
        const error = caught instanceof LumiError ? caught : new LumiError(String(caught), 0);
        const batch = this.#inFlight;
        this.#inFlight = [];
        this.#failed(error, batch);
        return;
      }
      this.#inFlight = [];
      this.#succeeded(result, events);
    }
  }

  #takeBatch(): Queued[] {
    let bytes = 0;
    let count = 0;
    for (const queued of this.#pending) {
      if (count >= this.#options.maxBatchEvents) break;
      if (count > 0 && bytes + queued.bytes > this.#options.maxBatchBytes) break;
      bytes += queued.bytes;
      count += 1;
    }
    return this.#pending.splice(0, count);
  }

  #succeeded(result: IngestResult, events: TelemetryEvent[]) {
    const recovered = this.#stats.lastError !== null;
    this.#attempt = 0;
    this.#notBefore = 0;
    this.#stats.accepted += result.accepted;
    this.#stats.duplicates += result.duplicates;
    this.#stats.rejected += result.rejected.length;
    this.#stats.lastSentAt = new Date();
    this.#stats.lastError = null;
    if (recovered) safely(() => this.#hooks.onProblem(null, false));
    safely(() => this.#hooks.onResult(result, events));
  }

  #failed(error: LumiError, batch: Queued[]) {
    this.#stats.lastError = error;
    if (!error.retryable) {
      // Sending the same batch again would get the same answer (a revoked key, a body too large).
      this.#stats.dropped += batch.length;
      safely(() => this.#hooks.onProblem(error, false));
      return;
    }
    this.#stats.retries += 1;
    this.#attempt += 1;
    this.#pending.unshift(...batch);
    this.#trim();
    const wait =
      error.retryAfterMs !== undefined
        ? Math.min(error.retryAfterMs, MAX_RETRY_AFTER_MS)
        : backoffMs(this.#attempt, this.#options.minRetryDelayMs, this.#options.maxRetryDelayMs);
    this.#notBefore = Date.now() + wait;
    safely(() => this.#hooks.onProblem(error, true));
    this.#schedule(wait);
  }
}

/** A listener's mistake must not stop the queue. */
function safely(call: () => void) {
  try {
    call();
  } catch {
    // Ignored: reporting never breaks the bot.
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}

/** Waits for `promise` or `ms`, whichever comes first. */
function race(promise: Promise<unknown>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, Math.max(0, ms));
    void promise.then(
      () => (clearTimeout(timer), resolve()),
      () => (clearTimeout(timer), resolve()),
    );
  });
}
