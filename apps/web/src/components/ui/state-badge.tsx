import { CircleCheck, CircleMinus } from 'lucide-react';
import { Badge } from '@/components/ui/badge';

interface StateBadgeProps {
  on: boolean;
  /** The words for on and off; Active and Inactive unless given. */
  labels?: readonly [string, string];
  /** How the off state looks: muted (a resting state) or a warning (something is switched off). */
  off?: 'muted' | 'warning';
}

/**
 * An on/off state in words with an icon beside the colour, so colour is never the only cue; the words
 * keep the text colour, readable in both themes.
 */
export function StateBadge({ on, labels = ['Active', 'Inactive'], off = 'muted' }: StateBadgeProps) {
  return on ? (
    <Badge>
      <CircleCheck aria-hidden className="size-3 text-success" />
      {labels[0]}
    </Badge>
  ) : (
    <Badge variant={off === 'warning' ? 'warning' : 'neutral'}>
      <CircleMinus aria-hidden className={off === 'warning' ? 'size-3' : 'size-3 text-muted-foreground'} />
      {labels[1]}
    </Badge>
  );
}
