import type { ScheduleRunOutcome } from '@lumi/contract';
import type { ComponentProps } from 'react';
import { Badge } from '@/components/ui/badge';

type Variant = ComponentProps<typeof Badge>['variant'];

const LOOKS: Record<ScheduleRunOutcome, { label: string; variant: Variant }> = {
  queued: { label: 'Queued', variant: 'neutral' },
  sending: { label: 'Sending', variant: 'primary' },
  sent: { label: 'Sent', variant: 'success' },
  failed: { label: 'Failed', variant: 'destructive' },
  cancelled: { label: 'Cancelled', variant: 'neutral' },
  unknown: { label: 'Unknown', variant: 'warning' },
  refused: { label: 'Refused', variant: 'destructive' },
  skipped: { label: 'Skipped', variant: 'warning' },
  not_queued: { label: 'Not queued', variant: 'destructive' },
};

/** What became of a run, in words (colour is never the only cue). */
export function RunOutcomeBadge({ outcome }: { outcome: ScheduleRunOutcome }) {
  const look = LOOKS[outcome];
  return <Badge variant={look.variant}>{look.label}</Badge>;
}
