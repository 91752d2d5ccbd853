import type { BotLimitsSnapshot, LimitMetric, LimitMode, LimitScope, LimitWindow } from '../wire.js';

/** What a limit counts: a chat's (0), a user's (1) or a feature's (2) usage; a number, to index arrays. */
export const CHAT = 0;
export const USER = 1;
export const FEATURE = 2;
export type SubjectKind = typeof CHAT | typeof USER | typeof FEATURE;
export const SUBJECT_KINDS: readonly SubjectKind[] = [CHAT, USER, FEATURE];

/** One limit of the snapshot, as the checks read it. */
export interface CopiedLimit {
  id: number;
  scope: LimitScope;
  kind: SubjectKind;
  metric: LimitMetric;
  window: LimitWindow;
  mode: LimitMode;
  hard: boolean;
  requests: boolean;
  /** The amount in force. */
  amount: number;
}

const KIND_OF: Record<LimitScope, SubjectKind> = {
  chat: CHAT,
  each_chat: CHAT,
  user: USER,
  each_user: USER,
  feature: FEATURE,
};

const NONE: readonly CopiedLimit[] = Object.freeze([]);

/** Bans or allowlist entries of one kind: the subject's expiry in ms (Infinity: until deleted). */
export type RuleMap = Map<string, number>;

/**
 * The snapshot (`GET /api/bot/limits`) indexed when it arrives, so a check is a few map reads whatever
 * the number of limits: per kind, each subject with limits of its own maps to the list that applies to it
 * (its own, then the each-chat or each-user defaults its own do not replace, in the snapshot's order, as
 * Lumi's LimitBook lists them), and every other subject to the defaults alone. The lists are made once
 * here, and a check reads them as they are.
 */
export class LimitIndex {
  readonly chatBans: RuleMap = new Map();
  readonly userBans: RuleMap = new Map();
  readonly chatAllows: RuleMap = new Map();
  readonly userAllows: RuleMap = new Map();
  readonly byId = new Map<number, CopiedLimit>();
  /** By kind: the subjects with limits of their own, each with every limit that applies to it. */
  readonly #own: Array<Map<string, readonly CopiedLimit[]>> = [new Map(), new Map(), new Map()];
  /** By kind: what applies to every other subject. */
  readonly #defaults: Array<readonly CopiedLimit[]> = [NONE, NONE, NONE];
  /** The earliest end of a raise (ms), when the amount in force changes back; Infinity without one. */
  readonly raiseEnds: number;
  readonly limitCount: number;
  readonly ruleCount: number;

  constructor(snapshot: BotLimitsSnapshot) {
    const own: Array<Map<string, CopiedLimit[]>> = [new Map(), new Map(), new Map()];
    const defaults: CopiedLimit[][] = [[], [], []];
    let raiseEnds = Infinity;
    for (const limit of snapshot.limits) {
      const kind = KIND_OF[limit.scope];
      if (kind === undefined) continue;
      const copied: CopiedLimit = {
        id: limit.id,
        scope: limit.scope,
        kind,
        metric: limit.metric,
        window: limit.window,
        mode: limit.mode,
        hard: limit.mode === 'hard',
        requests: limit.metric === 'requests',
        amount: limit.amount,
      };
      this.byId.set(limit.id, copied);
      const until = limit.amount_until === null ? NaN : Date.parse(limit.amount_until);
      if (!Number.isNaN(until)) raiseEnds = Math.min(raiseEnds, until);
      if (limit.scope === 'each_chat' || limit.scope === 'each_user') defaults[kind]!.push(copied);
      else if (limit.subject !== null) {
        const list = own[kind]!.get(limit.subject);
        if (list) list.push(copied);
        else own[kind]!.set(limit.subject, [copied]);
      }
    }
    for (const kind of SUBJECT_KINDS) {
      const fallback = defaults[kind]!;
      this.#defaults[kind] = fallback.length > 0 ? fallback : NONE;
      for (const [subject, limits] of own[kind]!) {
        // A subject's own limit replaces the default of the same metric and window.
        const kept = fallback.filter(
          (d) => !limits.some((l) => l.metric === d.metric && l.window === d.window),
        );
        this.#own[kind]!.set(subject, kept.length > 0 ? limits.concat(kept) : limits);
      }
    }
    for (const rule of snapshot.rules) {
      const expiry = rule.expires_at === null ? Infinity : Date.parse(rule.expires_at);
      if (Number.isNaN(expiry)) continue;
      const chat = rule.subject_kind === 'chat';
      const rules =
        rule.action === 'ban'
          ? chat
            ? this.chatBans
            : this.userBans
          : chat
            ? this.chatAllows
            : this.userAllows;
      rules.set(rule.subject, expiry);
    }
    this.raiseEnds = raiseEnds;
    this.limitCount = this.byId.size;
    this.ruleCount = snapshot.rules.length;
  }

  /** The limits that apply to one subject, in Lumi's order; [] when none do. */
  applicable(kind: SubjectKind, subject: string): readonly CopiedLimit[] {
    return this.#own[kind]!.get(subject) ?? this.#defaults[kind]!;
  }
}

/** Whether `value` has the snapshot's shape, as far as the index reads it. */
export function isSnapshot(value: unknown): value is BotLimitsSnapshot {
  const snapshot = value as Partial<BotLimitsSnapshot> | null;
  return (
    typeof snapshot === 'object' &&
    snapshot !== null &&
    Array.isArray(snapshot.limits) &&
    Array.isArray(snapshot.rules) &&
    typeof snapshot.timezone === 'string' &&
    typeof snapshot.server_time === 'string'
  );
}
