import {
  LIMIT_SCOPE_LABELS,
  LIMIT_WINDOW_LABELS,
  type AccessSubjectKind,
  type AllowanceReason,
  type Limit,
  type LimitMetric,
  type LimitMode,
  type LimitScope,
} from '@lumi/contract';
import { formatCurrency } from '@/lib/format';
import { numberFormat } from '@/lib/intl';

/**
 * How the Limits screen words a limit (docs/operators/limits.md): who it is on ("Chat -100123", "Each user"),
 * its amount and window ("$5.00 per day", "100 requests per hour") and a subject's usage against it.
 */

const whole = numberFormat(undefined, { maximumFractionDigits: 0 });

const UNITS: Record<Exclude<LimitMetric, 'cost_usd'>, [string, string]> = {
  tokens: ['token', 'tokens'],
  requests: ['request', 'requests'],
};

/** A number of the metric: "$5.00", "50,000 tokens", "1 request". */
export function formatAmount(metric: LimitMetric, value: number): string {
  if (metric === 'cost_usd') return formatCurrency(value);
  const [one, many] = UNITS[metric];
  return `${whole.format(value)} ${value === 1 ? one : many}`;
}

/** The figure alone, without its unit: "$5.00", "50,000". */
function formatFigure(metric: LimitMetric, value: number): string {
  return metric === 'cost_usd' ? formatCurrency(value) : whole.format(value);
}

/** An amount over a window: "$5.00 per day", "100 requests per hour". */
export function describeAmount(
  limit: { metric: LimitMetric; window: Limit['window'] },
  amount: number,
): string {
  return `${formatAmount(limit.metric, amount)} ${LIMIT_WINDOW_LABELS[limit.window]}`;
}

/** A limit's own amount over its window (not a raise's). */
export function describeLimit(limit: Pick<Limit, 'metric' | 'window' | 'amount'>): string {
  return describeAmount(limit, limit.amount);
}

/** Who a limit is on: "Chat -100123", "User 42", "Feature digest", "Each chat". */
export function describeWho(scope: LimitScope, subject: string | null): string {
  if (scope === 'each_chat' || scope === 'each_user' || !subject) return LIMIT_SCOPE_LABELS[scope];
  return `${LIMIT_SCOPE_LABELS[scope]} ${subject}`;
}

/** A subject a limit of this scope counts, as its usage names it: each chat's usage is a chat's. */
export function describeUsageSubject(scope: LimitScope, subject: string): string {
  const kind = scope === 'each_chat' ? 'chat' : scope === 'each_user' ? 'user' : scope;
  return describeWho(kind, subject);
}

/** A chat or user by its Telegram id: "Chat -100123". */
export function describeSubject(kind: AccessSubjectKind, subject: string): string {
  return describeWho(kind, subject);
}

/** Used against the amount in force: "$3.20 of $5.00", "80 of 100 requests". */
export function describeUsage(metric: LimitMetric, used: number, amount: number): string {
  const unit = metric === 'cost_usd' ? '' : ` ${UNITS[metric][amount === 1 ? 0 : 1]}`;
  return `${formatFigure(metric, used)} of ${formatFigure(metric, amount)}${unit}`;
}

/** A subject is near a limit from 80 % of it (as the preview counts), over it at 100 %. */
export const NEAR_SHARE = 0.8;

export type UsageLevel = 'ok' | 'near' | 'over';

/** The share of the amount used, in percent; an amount of 0 is over at the first use. */
export function usagePercent(used: number, amount: number): number {
  if (amount > 0) return (used / amount) * 100;
  return used > 0 ? 100 : 0;
}

export function usageLevel(used: number, amount: number): UsageLevel {
  if (used >= amount && amount > 0) return 'over';
  if (used >= amount * NEAR_SHARE && used > 0) return 'near';
  return 'ok';
}

/** A raise in force now: its amount differs from the limit's own and has not ended. */
export function activeRaise(
  limit: Pick<Limit, 'raise_amount' | 'raise_until'>,
  now: number = Date.now(),
): { amount: number; until: string } | null {
  if (limit.raise_amount === null || limit.raise_until === null) return null;
  return Date.parse(limit.raise_until) > now
    ? { amount: limit.raise_amount, until: limit.raise_until }
    : null;
}

export const MODE_LABELS: Record<LimitMode, string> = { soft: 'Soft', hard: 'Hard' };
export const MODE_DESCRIPTIONS: Record<LimitMode, string> = {
  soft: 'Soft — alert only',
  hard: 'Hard — deny calls',
};

/** Why the allowance decided as it did, in words (a denial is banned or limit_reached). */
export const ALLOWANCE_REASON_LABELS: Record<AllowanceReason, string> = {
  no_limits: 'No limit applies',
  within_limits: 'Within its limits',
  over_soft_limit: 'Over a soft limit',
  allowlisted: 'Allowlisted',
  banned: 'Banned',
  limit_reached: 'Limit reached',
};
