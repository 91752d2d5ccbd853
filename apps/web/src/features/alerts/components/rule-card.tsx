import type { AlertRule } from '@lumi/contract';
import { cn } from '@/lib/cn';
import { describeCondition } from '../lib/conditions';
import { RuleStateBadge, ruleStateLabel, SeverityBadge, stateEdge } from './alert-badges';
import { RelativeTime } from './relative-time';

/** A rule as a card: the firing and pending ones atop the Rules view: what holds, and since when; its
 * name shows it first on the page (alert-focus.tsx). */
export function RuleCard({ rule, onOpen }: { rule: AlertRule; onOpen: () => void }) {
  return (
    <li className={cn('rounded-lg border bg-card p-3 shadow-sm', stateEdge(rule.state))}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="font-semibold break-words">
          <button
            type="button"
            onClick={onOpen}
            className="text-left underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-ring"
          >
            {rule.name}
          </button>
        </h3>
        <span className="flex flex-wrap gap-1">
          <SeverityBadge severity={rule.severity} />
          <RuleStateBadge rule={rule} />
        </span>
      </div>
      <p className="mt-1 text-sm">{rule.last_evaluation?.summary ?? describeCondition(rule.condition)}</p>
      <p className="mt-1 text-xs text-muted-foreground">
        {ruleStateLabel(rule)} · changed{' '}
        <RelativeTime value={rule.state_since} fallback="at an unknown time" />
      </p>
    </li>
  );
}
