import { CircleCheck, CircleMinus } from 'lucide-react';
import { Badge } from '@/components/ui/badge';

/** Enabled or Disabled in words, with an icon, so colour is never the only cue. */
export function EnabledBadge({ enabled }: { enabled: boolean }) {
  return enabled ? (
    <Badge>
      <CircleCheck aria-hidden className="size-3 text-success" />
      Enabled
    </Badge>
  ) : (
    <Badge variant="warning">
      <CircleMinus aria-hidden className="size-3" />
      Disabled
    </Badge>
  );
}
