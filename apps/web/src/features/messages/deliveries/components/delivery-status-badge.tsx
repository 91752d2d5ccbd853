import type { DeliveryAttemptOutcome, DeliveryStatus } from '@lumi/contract';
import {
  Ban,
  CircleCheck,
  CircleHelp,
  CircleX,
  Clock,
  Hourglass,
  LoaderCircle,
  OctagonX,
  RotateCw,
} from 'lucide-react';
import type { ComponentProps, ComponentType } from 'react';
import { Badge } from '@/components/ui/badge';
import { OUTCOME_LABELS, STATUS_LABELS } from '../lib/delivery-status';

type Variant = ComponentProps<typeof Badge>['variant'];
type Look = { variant: Variant; icon: ComponentType<{ className?: string; 'aria-hidden'?: boolean }> };

const STATUS_LOOKS: Record<DeliveryStatus, Look> = {
  queued: { variant: 'neutral', icon: Clock },
  sending: { variant: 'primary', icon: LoaderCircle },
  sent: { variant: 'success', icon: CircleCheck },
  failed: { variant: 'destructive', icon: CircleX },
  cancelled: { variant: 'neutral', icon: Ban },
  unknown: { variant: 'warning', icon: CircleHelp },
  refused: { variant: 'destructive', icon: OctagonX },
};

const OUTCOME_LOOKS: Record<DeliveryAttemptOutcome, Look> = {
  sending: STATUS_LOOKS.sending,
  sent: STATUS_LOOKS.sent,
  retry: { variant: 'warning', icon: RotateCw },
  rate_limited: { variant: 'warning', icon: Hourglass },
  failed: STATUS_LOOKS.failed,
  unknown: STATUS_LOOKS.unknown,
};

function LookBadge({ look, label }: { look: Look; label: string }) {
  const Icon = look.icon;
  return (
    <Badge variant={look.variant}>
      <Icon aria-hidden className="size-3" />
      {label}
    </Badge>
  );
}

/** A delivery's state in words with an icon, so colour is never the only cue. */
export function DeliveryStatusBadge({ status }: { status: DeliveryStatus }) {
  return <LookBadge look={STATUS_LOOKS[status]} label={STATUS_LABELS[status]} />;
}

/** What one attempt came to. */
export function AttemptOutcomeBadge({ outcome }: { outcome: DeliveryAttemptOutcome }) {
  return <LookBadge look={OUTCOME_LOOKS[outcome]} label={OUTCOME_LABELS[outcome]} />;
}
