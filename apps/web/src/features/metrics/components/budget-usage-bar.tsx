import { cn } from '@/lib/cn';
import { formatPercent } from '../lib/format-metrics';
import { budgetBarPercent, budgetLevel, budgetUsageText, type Level } from '../lib/thresholds';
import { LevelBadge } from './level-badge';

const FILL: Record<Level, string> = { success: 'bg-success', warning: 'bg-warning', error: 'bg-destructive' };

/** Today's share of a budget: red above 80 %, yellow above 60 %, else green; the bar stops at 100 %. */
export function BudgetUsageBar({ provider, percentage }: { provider: string; percentage: number }) {
  const level = budgetLevel(percentage);
  const width = budgetBarPercent(percentage);
  const text = budgetUsageText(percentage);
  return (
    <div className="space-y-1.5">
      <div className="flex items-center justify-between gap-2 text-sm">
        <span className="font-medium tabular-nums">{formatPercent(percentage)} used</span>
        <LevelBadge level={level}>{text}</LevelBadge>
      </div>
      <div
        role="progressbar"
        aria-label={`${provider} budget used today`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(width)}
        aria-valuetext={`${formatPercent(percentage)} used, ${text}`}
        className="h-2 w-full overflow-hidden rounded-full bg-muted"
      >
        <div className={cn('h-full rounded-full', FILL[level])} style={{ width: `${width}%` }} />
      </div>
    </div>
  );
}
