import type { Allowance, AllowanceReason } from '../wire.js';
import { CHAT, FEATURE, USER, type LimitIndex, type RuleMap, type SubjectKind } from './limit-index.js';
import type { UsageBook, UsageSlot } from './usage-book.js';
import type { WindowClock } from './windows.js';

/**
 * A decision of the SDK: Lumi's allowance (`POST /api/bot/allowance`), or `unavailable`, a reason only the
 * SDK gives: it had no copy of the limits fresh enough to decide from (or, for `allowance()`, Lumi could not
 * be reached), and `allowed` is what `onUnavailable` says.
 */
export interface LocalAllowance extends Omit<Allowance, 'reason'> {
  reason: AllowanceReason | 'unavailable';
}

/** An answer that names no limit (a new object each time: the caller may keep or change it). */
export const plainAnswer = (allowed: boolean, reason: LocalAllowance['reason']): LocalAllowance => ({
  allowed,
  reason,
  limit: null,
  remaining: null,
  retry_after_seconds: null,
});

/** Seconds until `end`, rounded up and at least 1, as Lumi answers them. */
const secondsUntil = (end: number, now: number) => Math.max(1, Math.ceil((end - now) / 1000));

/** The expiry (ms) of a rule in force on `subject`, or -1. */
function ruleInForce(rules: RuleMap, subject: string | undefined, now: number): number {
  if (subject === undefined) return -1;
  const expiry = rules.get(subject);
  return expiry !== undefined && expiry > now ? expiry : -1;
}

/** Usage as Lumi's answers carry it: sums of dollars in binary floating point, rounded to a millionth. */
const rounded = (value: number) => Math.round(value * 1e6) / 1e6;

const used = (slot: UsageSlot) => (slot.limit.requests ? slot.base + slot.grants : slot.base);

function describe(slot: UsageSlot, subject: string, usedNow: number): Allowance['limit'] {
  const { id, scope, metric, window, mode, amount } = slot.limit;
  return { id, scope, subject, metric, window, mode, amount, used: rounded(usedNow) };
}

/**
 * Decides a check as Lumi decides it (apps/server/src/modules/limits/allowance.service.ts; docs/operators/
 * limits.md, "How a call is decided"), from the copy: a ban of the chat or user denies; an allowlist entry
 * admits; else every limit on the chat, user and feature is read, a hard one used up denies (one of cost or
 * tokens named before one of requests, then the one ending last: `deniesFirst`), and an allowed check counts
 * once for each request limit. It keeps the (up to three) subjects' counts in its own
 * fields between the two passes, so a check allocates only its answer.
 */
export class Decider {
  readonly #slots: Array<readonly UsageSlot[]> = [[], [], []];
  readonly #subjects: string[] = ['', '', ''];
  #groups = 0;

  decide(
    index: LimitIndex,
    usage: UsageBook,
    clock: WindowClock,
    chat: string | undefined,
    user: string | undefined,
    feature: string | undefined,
    now: number,
    localNow: number,
  ): LocalAllowance {
    const chatBan = ruleInForce(index.chatBans, chat, now);
    const banExpiry = chatBan >= 0 ? chatBan : ruleInForce(index.userBans, user, now);
    if (banExpiry >= 0) {
      return {
        allowed: false,
        reason: 'banned',
        limit: null,
        remaining: null,
        retry_after_seconds: banExpiry === Infinity ? null : secondsUntil(banExpiry, now),
      };
    }
    if (ruleInForce(index.chatAllows, chat, now) >= 0 || ruleInForce(index.userAllows, user, now) >= 0) {
      return plainAnswer(true, 'allowlisted');
    }

    this.#groups = 0;
    this.#collect(index, usage, clock, CHAT, chat, now, localNow);
    this.#collect(index, usage, clock, USER, user, now, localNow);
    this.#collect(index, usage, clock, FEATURE, feature, now, localNow);
    const groups = this.#groups;
    if (groups === 0) return plainAnswer(true, 'no_limits');

    let over = false;
    let spent: UsageSlot | null = null;
    let spentSubject = '';
    let spentUsed = 0;
    let tightest: UsageSlot | null = null;
    let tightestSubject = '';
    let tightestShare = -Infinity;
    for (let g = 0; g < groups; g += 1) {
      const slots = this.#slots[g]!;
      for (let i = 0; i < slots.length; i += 1) {
        const slot = slots[i]!;
        const limit = slot.limit;
        const usedNow = used(slot);
        if (usedNow >= limit.amount) {
          if (limit.hard) {
            if (spent === null || deniesFirst(slot, spent)) {
              spent = slot;
              spentSubject = this.#subjects[g]!;
              spentUsed = usedNow;
            }
            continue;
          }
          over = true;
        }
        // Named: the limit closest to its amount once this check counts (the first of equals).
        const share = (limit.requests ? usedNow + 1 : usedNow) / limit.amount;
        if (share > tightestShare) {
          tightestShare = share;
          tightest = slot;
          tightestSubject = this.#subjects[g]!;
        }
      }
    }
    if (spent !== null) {
      return {
        allowed: false,
        reason: 'limit_reached',
        limit: describe(spent, spentSubject, spentUsed),
        remaining: 0,
        retry_after_seconds: secondsUntil(spent.windowEnd, now),
      };
    }
    for (let g = 0; g < groups; g += 1) {
      for (const slot of this.#slots[g]!) if (slot.limit.requests) slot.grants += 1;
    }
    const usedNow = used(tightest!);
    return {
      allowed: true,
      reason: over ? 'over_soft_limit' : 'within_limits',
      limit: describe(tightest!, tightestSubject, usedNow),
      remaining: rounded(Math.max(0, tightest!.limit.amount - usedNow)),
      retry_after_seconds: null,
    };
  }

  /** Adds the counts of the limits on one subject to the check's groups. */
  #collect(
    index: LimitIndex,
    usage: UsageBook,
    clock: WindowClock,
    kind: SubjectKind,
    subject: string | undefined,
    now: number,
    localNow: number,
  ): void {
    if (subject === undefined) return;
    const slots = usage.slots(kind, subject, index, now, localNow, clock);
    if (slots.length === 0) return;
    const group = this.#groups;
    this.#slots[group] = slots;
    this.#subjects[group] = subject;
    this.#groups = group + 1;
  }
}

/**
 * Of two used-up hard limits, whether `a` is the one a denial names (as Lumi does, docs/operators/limits.md,
 * "How a call is decided"): cost or tokens before requests, then the window that ends last.
 */
function deniesFirst(a: UsageSlot, b: UsageSlot): boolean {
  if (a.limit.requests !== b.limit.requests) return !a.limit.requests;
  return a.windowEnd > b.windowEnd;
}
