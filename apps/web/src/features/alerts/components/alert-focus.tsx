import type { AlertRule } from '@lumi/contract';
import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { cn } from '@/lib/cn';
import { formatDateTime } from '@/lib/format';
import { describeCondition } from '../lib/conditions';
import { RuleStateBadge, ruleStateLabel, SeverityBadge, stateEdge } from './alert-badges';
import { RelativeTime } from './relative-time';

/** The card and its what/since/what-to-do grid, shared by the rule and the frame that holds its place. */
const CARD = 'rounded-lg border bg-card p-4 shadow-sm';
const FIELDS = 'mt-3 grid gap-x-4 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]';

/**
 * The rule an alert's link names (?rule=<id>; docs/operators/console-guide.md, "When an alert fires"), first on the
 * page and before anything else loads: what fired, since when, and what to do, with the editor one click
 * away for those who may change it.
 */
export function AlertFocus({
  rule,
  onEdit,
  onClose,
}: {
  rule: AlertRule;
  onEdit?: () => void;
  onClose: () => void;
}) {
  const step = rule.next_step;
  const summary = rule.last_evaluation?.summary;
  const section = useRef<HTMLElement>(null);
  // Opened from a card further down, it is brought into view (jsdom has no scrollIntoView). The effect
  // returns nothing: newer Chromium answers scrollIntoView with a promise, which React would take for a
  // cleanup.
  useEffect(() => {
    section.current?.scrollIntoView?.({ block: 'nearest' });
  }, [rule.id]);
  return (
    <section ref={section} aria-labelledby="alert-focus-heading" className={cn(CARD, stateEdge(rule.state))}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h2 id="alert-focus-heading" className="text-lg font-semibold break-words">
          {rule.name}
        </h2>
        <span className="flex flex-wrap gap-1">
          <SeverityBadge severity={rule.severity} />
          <RuleStateBadge rule={rule} />
        </span>
      </div>
      <dl className={FIELDS}>
        <dt className="text-muted-foreground">What</dt>
        <dd>
          {summary ?? describeCondition(rule.condition)}
          {summary && (
            <span className="block text-xs text-muted-foreground">
              Rule: {describeCondition(rule.condition)}
            </span>
          )}
        </dd>
        <dt className="text-muted-foreground">Since</dt>
        <dd>
          {ruleStateLabel(rule)}{' '}
          {rule.state_since ? (
            <>
              since {formatDateTime(rule.state_since)} (<RelativeTime value={rule.state_since} />)
            </>
          ) : (
            'since an unknown time'
          )}
        </dd>
        <dt className="text-muted-foreground">{rule.state === 'ok' ? 'If it fires' : 'What to do'}</dt>
        <dd>
          {step.text}{' '}
          <Link to={step.to} className="font-medium text-primary underline-offset-2 hover:underline">
            {step.label}
          </Link>
        </dd>
      </dl>
      <div className="mt-4 flex flex-wrap gap-2">
        {onEdit && (
          <Button size="sm" onClick={onEdit}>
            Edit Rule
          </Button>
        )}
        <Button size="sm" variant="secondary" asChild>
          <Link to="/alerts?view=history">History</Link>
        </Button>
        <Button size="sm" variant="ghost" onClick={onClose}>
          Close
        </Button>
      </div>
    </section>
  );
}

/**
 * The rule an alert's link names while the rules load, laid out as AlertFocus. In the page's first view
 * (apps/web/src/prerender.tsx) public/first-load.js fills its `data-brief` parts from the rule before the
 * app's code has loaded: what fired, since when, and what to do (docs/benchmarks.md, "The first signed-in
 * load").
 */
export function AlertFocusFrame() {
  // Placeholders about as tall as a phone's text, so filling them moves little (CLS).
  const line = (brief: string, widths: string[]) => (
    <dd data-brief={brief} className="space-y-1">
      {widths.map((width, i) => (
        <Skeleton key={i} className={cn('h-4', width)} />
      ))}
    </dd>
  );
  return (
    <section aria-label="Loading the alert" aria-busy data-alert-brief className={CARD}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h2 className="text-lg font-semibold break-words max-sm:basis-full" data-brief="name">
          <Skeleton className="h-7 w-64 max-w-full" />
        </h2>
        <span className="flex gap-1">
          <Skeleton className="h-5 w-20" />
          <Skeleton className="h-5 w-14" />
        </span>
      </div>
      <dl className={FIELDS}>
        <dt className="text-muted-foreground">What</dt>
        {line('what', ['w-full', 'w-2/3'])}
        <dt className="text-muted-foreground">Since</dt>
        {line('since', ['w-full', 'w-24'])}
        <dt className="text-muted-foreground" data-brief="next-heading">
          What to do
        </dt>
        {line('next', ['w-full', 'w-full', 'w-1/2'])}
      </dl>
      <div className="mt-4 flex gap-2">
        <Skeleton className="h-8 w-20" />
        <Skeleton className="h-8 w-20" />
      </div>
    </section>
  );
}
