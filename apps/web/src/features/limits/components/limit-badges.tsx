import type { AccessAction, LimitMode } from '@lumi/contract';
import { Ban, BellRing, CircleCheck, OctagonX } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { MODE_LABELS } from '../lib/limit-text';

/** Soft: over it, calls go on and the limit shows as reached; hard: over it, calls are denied. */
export function ModeBadge({ mode }: { mode: LimitMode }) {
  const Icon = mode === 'hard' ? OctagonX : BellRing;
  return (
    <Badge variant={mode === 'hard' ? 'destructive' : 'warning'}>
      <Icon aria-hidden className="size-3" />
      {MODE_LABELS[mode]}
    </Badge>
  );
}

export const ACCESS_ACTION_LABELS: Record<AccessAction, string> = { ban: 'Ban', allow: 'Allow' };

/** Ban: every call denied; allow: no limit applies (a ban still wins). */
export function AccessActionBadge({ action }: { action: AccessAction }) {
  const Icon = action === 'ban' ? Ban : CircleCheck;
  return (
    <Badge variant={action === 'ban' ? 'destructive' : 'success'}>
      <Icon aria-hidden className="size-3" />
      {ACCESS_ACTION_LABELS[action]}
    </Badge>
  );
}
