import type { AllowanceRequest, LimitScope } from '@lumi/contract';
import type { Selectable } from 'kysely';
import type { AccessRulesTable, LimitsTable, UsageKind } from '../../db/limit-tables.js';

export type LimitRow = Selectable<LimitsTable>;
export type AccessRuleRow = Selectable<AccessRulesTable>;

/** A limit as it applies to one subject of a request: the chat, user or feature it counts. */
export interface AppliedLimit {
  limit: LimitRow;
  kind: UsageKind;
  subject: string;
}

const EACH: Partial<Record<LimitScope, UsageKind>> = { each_chat: 'chat', each_user: 'user' };
const OWN: Partial<Record<LimitScope, UsageKind>> = { chat: 'chat', user: 'user', feature: 'feature' };

/** The amount in force at `now`: a raise's while it lasts. */
export function effectiveAmount(limit: LimitRow, now: number): number {
  return limit.raise_amount !== null && limit.raise_until !== null && Date.parse(limit.raise_until) > now
    ? limit.raise_amount
    : limit.amount;
}

/** A rule decides while it has not expired. */
export function ruleActive(rule: AccessRuleRow, now: number): boolean {
  return rule.expires_at === null || Date.parse(rule.expires_at) > now;
}

/**
 * Every limit and access rule, indexed for the allowance (docs/operators/limits.md, "How a call is
 * decided"): which limits apply to a request is a few map reads, however many limits there are. A chat's or
 * user's own limit replaces the each-chat or each-user default of the same metric and window.
 */
export class LimitBook {
  private readonly own = new Map<string, LimitRow[]>();
  private readonly each = new Map<UsageKind, LimitRow[]>();
  private readonly rules = new Map<string, AccessRuleRow>();

  constructor(
    readonly limits: readonly LimitRow[],
    rules: readonly AccessRuleRow[],
  ) {
    for (const limit of limits) {
      const own = OWN[limit.scope];
      if (own) {
        const key = `${own}|${limit.subject}`;
        this.own.set(key, [...(this.own.get(key) ?? []), limit]);
      } else {
        const kind = EACH[limit.scope]!;
        this.each.set(kind, [...(this.each.get(kind) ?? []), limit]);
      }
    }
    for (const rule of rules) this.rules.set(`${rule.subject_kind}|${rule.subject}`, rule);
  }

  /** The rules in force now. */
  activeRules(now: number): AccessRuleRow[] {
    return [...this.rules.values()].filter((rule) => ruleActive(rule, now));
  }

  /** The subject's rule, if one is in force now. */
  rule(kind: 'chat' | 'user', subject: string, now: number): AccessRuleRow | null {
    const rule = this.rules.get(`${kind}|${subject}`);
    return rule && ruleActive(rule, now) ? rule : null;
  }

  /** The limits on one subject: its own, and the defaults its own do not replace. */
  limitsOf(kind: UsageKind, subject: string, into: AppliedLimit[] = []): AppliedLimit[] {
    const own = this.own.get(`${kind}|${subject}`);
    for (const limit of own ?? []) into.push({ limit, kind, subject });
    for (const limit of this.each.get(kind) ?? []) {
      const replaced = own?.some((mine) => mine.metric === limit.metric && mine.window === limit.window);
      if (!replaced) into.push({ limit, kind, subject });
    }
    return into;
  }

  applicable(request: AllowanceRequest): AppliedLimit[] {
    const applied: AppliedLimit[] = [];
    if (request.chat_id !== undefined) this.limitsOf('chat', request.chat_id, applied);
    if (request.user_id !== undefined) this.limitsOf('user', request.user_id, applied);
    if (request.feature !== undefined) this.limitsOf('feature', request.feature, applied);
    return applied;
  }
}
