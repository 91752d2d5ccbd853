import type { LimitMetric } from '@lumi/contract';
import { cn } from '@/lib/cn';
import { describeUsage, usageLevel, usagePercent, type UsageLevel } from '../lib/limit-text';

const FILL: Record<UsageLevel, string> = {
  ok: 'bg-primary',
  near: 'bg-warning',
  over: 'bg-destructive',
};
const TEXT: Record<UsageLevel, string> = { ok: '', near: 'text-warning', over: 'text-destructive' };
/** The level in words beside the colour, so colour is never the only signal. */
const WORDS: Record<UsageLevel, string | null> = { ok: null, near: 'Near', over: 'Over' };

interface UsageBarProps {
  /** The bar's accessible name: whose usage of which limit ("Chat -100123: $5.00 per day"). */
  label: string;
  /** The subject shown above the bar, where a limit has several (each chat's). */
  subject?: string;
  metric: LimitMetric;
  used: number;
  /** The amount in force now (a raise's while it lasts). */
  amount: number;
  className?: string;
}

/**
 * A subject's usage of a limit in its current window: red from 100 %, amber from 80 % (where the preview
 * counts a subject as near it), with the figures and the level in words; the bar stops at 100 %.
 */
export function UsageBar({ label, subject, metric, used, amount, className }: UsageBarProps) {
  const percent = usagePercent(used, amount);
  const level = usageLevel(used, amount);
  const figures = describeUsage(metric, used, amount);
  const shown = `${Math.floor(percent)}%`;
  const words = WORDS[level];
  return (
    <div className={cn('min-w-0 space-y-1', className)}>
      <p className="text-xs">
        {subject && <span className="block font-mono break-all">{subject}</span>}
        <span className={cn('tabular-nums', TEXT[level])}>
          {figures} · {shown}
          {words && <span className="font-semibold"> · {words}</span>}
        </span>
      </p>
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.min(100, Math.floor(percent))}
        aria-valuetext={`${shown} used: ${figures}${words ? `, ${words.toLowerCase()} the limit` : ''}`}
        className="h-1.5 w-full overflow-hidden rounded-full bg-muted"
      >
        <div
          className={cn('h-full rounded-full', FILL[level])}
          style={{ width: `${Math.min(100, Math.max(0, percent))}%` }}
        />
      </div>
    </div>
  );
}
