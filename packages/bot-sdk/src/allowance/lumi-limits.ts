import type { LumiContext } from '../context.js';
import type { Attribution } from '../events.js';
import { backoffMs, LumiError, requestJson, type HttpOptions } from '../http.js';
import type { Allowance, AllowanceRequest, BotLimitsSnapshot, BotUsageResponse } from '../wire.js';
import { Decider, plainAnswer, type LocalAllowance } from './decide.js';
import { isSnapshot, LimitIndex } from './limit-index.js';
import { LIMITS_DEFAULTS, type LimitsOptions, type LimitsStats } from './limits-options.js';
import { FeatureNames, idText } from './subject-names.js';
import { UsageBook } from './usage-book.js';
import { knownTimeZone, WindowClock } from './windows.js';

/** The client's parts the limits use. */
export interface LimitsDeps {
  report(error: Error): void;
  context(): Readonly<LumiContext>;
}

/** The most subjects of each kind one usage request may name (BOT_USAGE_SUBJECTS_MAX of the contract). */
const USAGE_BATCH = 500;
const NO_CONTEXT: Readonly<LumiContext> = Object.freeze({});

interface Copy {
  index: LimitIndex;
  clock: WindowClock;
  /** When it arrived (ms, this process's clock). */
  receivedAt: number;
  /** Which limits it has (their ids, metrics and windows): the usage is read again when this changes. */
  signature: string;
}

/**
 * Spend and abuse control for the bot (docs/bot-developers/limits.md): `allow()` decides in microseconds,
 * without a request, from a copy of Lumi's limits, bans and allowlist entries (`GET /api/bot/limits`) and
 * of the usage of the chats, users and features it was asked about (`POST /api/bot/allowance/usage`), kept
 * in step in the background; `allowance()` asks Lumi for its exact decision. Needs `allowance:read`.
 */
export class LumiLimits {
  readonly #http: HttpOptions;
  readonly #options: Required<LimitsOptions>;
  readonly #deps: LimitsDeps;
  readonly #usage: UsageBook;
  readonly #decider = new Decider();
  readonly #features = new FeatureNames();
  #copy: Copy | null = null;
  /** Lumi's clock minus this process's (ms), from the last snapshot's `server_time`. */
  #skew = 0;
  #running = false;
  #stopped = false;
  #snapshotTimer: ReturnType<typeof setTimeout> | null = null;
  #usageTimer: ReturnType<typeof setInterval> | null = null;
  #loading: Promise<boolean> | null = null;
  #failures = 0;
  #draining = false;
  #pumping: Promise<void> = Promise.resolve();
  #pumpQueued = false;

  constructor(http: HttpOptions, options: LimitsOptions, deps: LimitsDeps) {
    this.#http = http;
    this.#options = { ...LIMITS_DEFAULTS, ...options };
    this.#deps = deps;
    this.#usage = new UsageBook(this.#options.maxSubjects, () => this.#kick());
  }

  /**
   * May this chat, user and feature make an LLM call now? Decided here from the copy, at once; each field
   * left out comes from the current context (the grammY plugin's update). An allowed check counts as one
   * request for the request limits that apply. Starts the background sync on first use.
   */
  allow(input: Attribution = {}): LocalAllowance {
    if (!this.#running && !this.#stopped) this.start();
    const localNow = Date.now();
    const copy = this.#copy;
    if (copy === null || localNow - copy.receivedAt > this.#options.staleAfterMs) return this.#unavailable();
    const context =
      input.chatId === undefined || input.userId === undefined || input.feature === undefined
        ? this.#deps.context()
        : NO_CONTEXT;
    return this.#decider.decide(
      copy.index,
      this.#usage,
      copy.clock,
      idText(input.chatId ?? context.chatId),
      idText(input.userId ?? context.userId),
      this.#features.clean(input.feature ?? context.feature),
      localNow + this.#skew,
      localNow,
    );
  }

  /**
   * Lumi's exact decision (`POST /api/bot/allowance`), which counts the call there when allowed. When Lumi
   * cannot be reached (or answers 429 or 5xx) it answers as `onUnavailable` says, with reason
   * `unavailable`; a key without `allowance:read` or a refused request rejects with a LumiError.
   */
  async allowance(input: Attribution = {}): Promise<LocalAllowance> {
    const context = this.#deps.context();
    const body: AllowanceRequest = {};
    const chat = idText(input.chatId ?? context.chatId);
    const user = idText(input.userId ?? context.userId);
    const feature = this.#features.clean(input.feature ?? context.feature);
    if (chat !== undefined) body.chat_id = chat;
    if (user !== undefined) body.user_id = user;
    if (feature !== undefined) body.feature = feature;
    try {
      return (await requestJson<Allowance>(this.#http, 'POST', '/api/bot/allowance', { body })).body;
    } catch (error) {
      if (!(error instanceof LumiError) || !error.retryable) throw error;
      this.#deps.report(error);
      return this.#unavailable();
    }
  }

  /**
   * Reads the limits, and the usage of the chats, users and features checked recently, now; resolves with
   * whether a copy fresh enough to decide from is held. Never rejects (a failure goes to `onError`).
   */
  async load(): Promise<boolean> {
    const fresh = await this.#loadSnapshot();
    this.#usage.wantAll();
    await this.#pump();
    return fresh;
  }

  #loadSnapshot(): Promise<boolean> {
    this.#loading ??= this.#fetchSnapshot().finally(() => {
      this.#loading = null;
    });
    return this.#loading;
  }

  /** Reads the limits now and keeps the copy in step (`lumi.start()` calls it when `limits` is set). */
  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#stopped = false;
    void this.#loadSnapshot();
    this.#usageTimer = setInterval(() => this.#refreshUsage(), this.#options.usageRefreshMs);
    this.#usageTimer.unref?.();
  }

  /** Stops the background sync; checks go on deciding from the copy until it is stale. */
  stop(): void {
    this.#running = false;
    this.#stopped = true;
    if (this.#snapshotTimer) clearTimeout(this.#snapshotTimer);
    if (this.#usageTimer) clearInterval(this.#usageTimer);
    this.#snapshotTimer = null;
    this.#usageTimer = null;
  }

  stats(): LimitsStats {
    const copy = this.#copy;
    return {
      fresh: this.#fresh(Date.now()),
      fetchedAt: copy ? new Date(copy.receivedAt) : null,
      limits: copy?.index.limitCount ?? 0,
      rules: copy?.index.ruleCount ?? 0,
      subjects: this.#usage.size,
      timezone: copy?.clock.timeZone ?? null,
    };
  }

  #fresh(localNow: number): boolean {
    return this.#copy !== null && localNow - this.#copy.receivedAt <= this.#options.staleAfterMs;
  }

  #unavailable(): LocalAllowance {
    return plainAnswer(this.#options.onUnavailable !== 'closed', 'unavailable');
  }

  async #fetchSnapshot(): Promise<boolean> {
    let next = this.#options.limitsRefreshMs;
    try {
      const sent = Date.now();
      const { body } = await requestJson<BotLimitsSnapshot>(this.#http, 'GET', '/api/bot/limits');
      if (!isSnapshot(body))
        throw new LumiError('GET /api/bot/limits answered something else than limits', 200);
      const received = Date.now();
      this.#apply(body, sent, received);
      this.#failures = 0;
      // A raise that ends brings the limit's own amount back, which only Lumi knows: read it then.
      const raiseEnds = this.#copy!.index.raiseEnds - (received + this.#skew);
      if (raiseEnds < next) next = Math.max(1000, raiseEnds + 500);
    } catch (error) {
      this.#failures += 1;
      this.#deps.report(error as Error);
      next = Math.min(next, backoffMs(this.#failures, 1000, next));
    }
    if (this.#running) {
      if (this.#snapshotTimer) clearTimeout(this.#snapshotTimer);
      this.#snapshotTimer = setTimeout(() => void this.#loadSnapshot(), next);
      this.#snapshotTimer.unref?.();
    }
    return this.#fresh(Date.now());
  }

  #apply(snapshot: BotLimitsSnapshot, sent: number, received: number): void {
    const serverTime = Date.parse(snapshot.server_time);
    this.#skew = Number.isNaN(serverTime) ? 0 : Math.round(serverTime - (sent + received) / 2);
    let timeZone = snapshot.timezone;
    if (!knownTimeZone(timeZone)) {
      this.#deps.report(new Error(`Lumi's time zone ${timeZone} is unknown here: days and months in UTC`));
      timeZone = 'UTC';
    }
    const index = new LimitIndex(snapshot);
    const previous = this.#copy;
    const signature = snapshot.limits.map((l) => `${l.id}:${l.metric}:${l.window}`).join(',');
    this.#copy = {
      index,
      clock: previous?.clock.timeZone === timeZone ? previous.clock : new WindowClock(timeZone),
      receivedAt: received,
      signature,
    };
    // Other limits apply now: the usage of every subject is read again at once.
    if (previous && previous.signature !== signature) {
      this.#usage.wantAll();
      this.#kick();
    }
  }

  /** Every `usageRefreshMs`: forgets idle subjects and reads the usage of the rest again. */
  #refreshUsage(): void {
    this.#usage.forget(Date.now() - this.#options.forgetAfterMs);
    this.#usage.wantAll();
    void this.#pump();
  }

  /** Asks for the wanted usage after the current synchronous work, so a burst of checks makes one request. */
  #kick(): void {
    if (this.#pumpQueued) return;
    this.#pumpQueued = true;
    queueMicrotask(() => {
      this.#pumpQueued = false;
      void this.#pump();
    });
  }

  /**
   * Reads the wanted usage, one request at a time, up to 500 subjects of each kind in each; resolves when
   * none is wanted any more (a call while it runs waits for the same run).
   */
  #pump(): Promise<void> {
    if (this.#stopped || !this.#copy) return Promise.resolve();
    if (!this.#draining) {
      this.#draining = true;
      this.#pumping = this.#drain();
    }
    return this.#pumping;
  }

  async #drain(): Promise<void> {
    try {
      for (let ask = this.#usage.takeWanted(USAGE_BATCH); ask; ask = this.#usage.takeWanted(USAGE_BATCH)) {
        const path = '/api/bot/allowance/usage';
        const { body } = await requestJson<BotUsageResponse>(this.#http, 'POST', path, { body: ask });
        const copy = this.#copy;
        if (copy && Array.isArray(body?.usage))
          this.#usage.apply(body, Date.now() + this.#skew, copy.index, copy.clock);
        if (this.#stopped) break;
      }
    } catch (error) {
      // The subjects asked about are read again at the next refresh.
      this.#deps.report(error as Error);
    } finally {
      // Set in the same step as the last look at the wanted list, so a subject wanted later starts a new run.
      this.#draining = false;
    }
  }
}
