import {
  ALERT_SEVERITIES,
  type AlertEvaluation,
  type AlertNotificationStatus,
  type AlertRule,
  type AlertSeverity,
  type AlertState,
  type Silence,
} from '@lumi/contract';
import {
  BellOff,
  CalendarClock,
  CircleCheck,
  CircleDashed,
  CircleHelp,
  CircleX,
  Clock,
  Flame,
  Hourglass,
  OctagonAlert,
  TriangleAlert,
} from 'lucide-react';
import type { ComponentProps, ComponentType } from 'react';
import { Badge } from '@/components/ui/badge';
import { cn } from '@/lib/cn';

type Variant = ComponentProps<typeof Badge>['variant'];
interface Look {
  label: string;
  variant: Variant;
  icon: ComponentType<{ className?: string; 'aria-hidden'?: boolean }>;
}

/** A badge of words and an icon, so colour is never the only cue. */
function LookBadge({ look }: { look: Look }) {
  const Icon = look.icon;
  return (
    <Badge variant={look.variant}>
      <Icon aria-hidden className="size-3" />
      {look.label}
    </Badge>
  );
}

const SEVERITY_LOOKS: Record<AlertSeverity, Look> = {
  warning: { label: 'Warning', variant: 'warning', icon: TriangleAlert },
  critical: { label: 'Critical', variant: 'destructive', icon: OctagonAlert },
};

export const SEVERITY_LABELS: Record<AlertSeverity, string> = { warning: 'Warning', critical: 'Critical' };

/** The severities as a select's options, in the contract's order. */
export function SeverityOptions() {
  return ALERT_SEVERITIES.map((severity) => (
    <option key={severity} value={severity}>
      {SEVERITY_LABELS[severity]}
    </option>
  ));
}

export function SeverityBadge({ severity }: { severity: AlertSeverity }) {
  return <LookBadge look={SEVERITY_LOOKS[severity]} />;
}

const STATE_LOOKS: Record<AlertState, Look> = {
  ok: { label: 'OK', variant: 'success', icon: CircleCheck },
  pending: { label: 'Pending', variant: 'warning', icon: Hourglass },
  firing: { label: 'Firing', variant: 'destructive', icon: Flame },
};

export const STATE_LABELS: Record<AlertState, string> = { ok: 'OK', pending: 'Pending', firing: 'Firing' };

/** Said of a rule a silence covers: it still changes state, it only does not notify. */
export function SilencedBadge() {
  return <LookBadge look={{ label: 'Silenced', variant: 'neutral', icon: BellOff }} />;
}

/** A state a rule entered (the history's); a silenced rule says so beside it. */
export function AlertStateBadge({ state, silenced = false }: { state: AlertState; silenced?: boolean }) {
  return (
    <span className="inline-flex flex-wrap gap-1">
      <LookBadge look={STATE_LOOKS[state]} />
      {silenced && <SilencedBadge />}
    </span>
  );
}

const NOT_EVALUATED: Look = { label: 'Not evaluated yet', variant: 'neutral', icon: CircleDashed };

/** The coloured left edge of a rule's card or panel: red while firing, amber while pending. */
export function stateEdge(state: AlertState): string {
  return cn(
    'border-l-4',
    state === 'firing' && 'border-l-destructive',
    state === 'pending' && 'border-l-warning',
  );
}

/** A rule's state in words: a rule is `ok` before its first evaluation, which is not the same as OK. */
export function ruleStateLabel(rule: Pick<AlertRule, 'state' | 'last_evaluated_at'>): string {
  return rule.last_evaluated_at === null ? NOT_EVALUATED.label : STATE_LABELS[rule.state];
}

/** A rule's current state, or that it has not been evaluated yet; a silenced rule says so beside it. */
export function RuleStateBadge({ rule }: { rule: AlertRule }) {
  if (rule.last_evaluated_at !== null) return <AlertStateBadge state={rule.state} silenced={rule.silenced} />;
  return (
    <span className="inline-flex flex-wrap gap-1">
      <LookBadge look={NOT_EVALUATED} />
      {rule.silenced && <SilencedBadge />}
    </span>
  );
}

/** What the editor's live line says a condition comes to now. */
export function EvaluationBadge({ holds }: { holds: AlertEvaluation['holds'] }) {
  const look: Look =
    holds === null
      ? { label: 'No data', variant: 'neutral', icon: CircleHelp }
      : holds
        ? { label: 'Would fire', variant: 'destructive', icon: Flame }
        : { label: 'OK', variant: 'success', icon: CircleCheck };
  return <LookBadge look={look} />;
}

const NOTIFICATION_LOOKS: Record<AlertNotificationStatus, Look> = {
  queued: { label: 'Queued', variant: 'neutral', icon: Clock },
  sent: { label: 'Sent', variant: 'success', icon: CircleCheck },
  failed: { label: 'Failed', variant: 'destructive', icon: CircleX },
};

export function NotificationStatusBadge({ status }: { status: AlertNotificationStatus }) {
  return <LookBadge look={NOTIFICATION_LOOKS[status]} />;
}

const SILENCE_LOOKS: Record<Silence['status'], Look> = {
  active: { label: 'Active', variant: 'primary', icon: BellOff },
  scheduled: { label: 'Scheduled', variant: 'neutral', icon: CalendarClock },
  expired: { label: 'Expired', variant: 'neutral', icon: Clock },
};

export function SilenceStatusBadge({ status }: { status: Silence['status'] }) {
  return <LookBadge look={SILENCE_LOOKS[status]} />;
}
