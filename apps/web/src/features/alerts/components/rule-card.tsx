import type { AlertRule } from '@lumi/contract';
import { cn } from '@/lib/cn';
import { describeCondition } from '../lib/conditions';
import { AlertStateBadge, SeverityBadge, STATE_LABELS } from './alert-badges';
import { RelativeTime } from './relative-time';

/** A firing or pending rule, as the top of the Rules view lists them: what holds, and since when. */
export function RuleCard({ rule, onOpen }: { rule: AlertRule; onOpen?: () => void }) {
  return (
    <li
      className={cn(
        'rounded-lg border bg-card p-3 shadow-sm',
        'border-l-4',
        rule.state === 'firing' && 'border-l-destructive',
        rule.state === 'pending' && 'border-l-warning',
      )}
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="font-semibold break-words">
          {onOpen ? (
            <button
              type="button"
              onClick={onOpen}
              className="text-left underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-ring"
            >
              {rule.name}
            </button>
          ) : (
            rule.name
          )}
        </h3>
        <span className="flex flex-wrap gap-1">
          <SeverityBadge severity={rule.severity} />
          <AlertStateBadge state={rule.state} silenced={rule.silenced} />
        </span>
      </div>
      <p className="mt-1 text-sm">{rule.last_evaluation?.summary ?? describeCondition(rule.condition)}</p>
      <p className="mt-1 text-xs text-muted-foreground">
        {STATE_LABELS[rule.state]} · changed{' '}
        <RelativeTime value={rule.state_since} fallback="at an unknown time" />
      </p>
    </li>
  );
}
