import type {
  AlertEvaluation,
  AlertNotificationStatus,
  AlertSeverity,
  AlertState,
  Silence,
} from '@lumi/contract';
import {
  BellOff,
  CalendarClock,
  CircleCheck,
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

export function SeverityBadge({ severity }: { severity: AlertSeverity }) {
  return <LookBadge look={SEVERITY_LOOKS[severity]} />;
}

const STATE_LOOKS: Record<AlertState, Look> = {
  ok: { label: 'OK', variant: 'success', icon: CircleCheck },
  pending: { label: 'Pending', variant: 'warning', icon: Hourglass },
  firing: { label: 'Firing', variant: 'destructive', icon: Flame },
};

export const STATE_LABELS: Record<AlertState, string> = { ok: 'OK', pending: 'Pending', firing: 'Firing' };

/** A rule's state; a silenced rule says so beside it (it still changes state, it only does not notify). */
export function AlertStateBadge({ state, silenced = false }: { state: AlertState; silenced?: boolean }) {
  return (
    <span className="inline-flex flex-wrap gap-1">
      <LookBadge look={STATE_LOOKS[state]} />
      {silenced && <LookBadge look={{ label: 'Silenced', variant: 'neutral', icon: BellOff }} />}
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
