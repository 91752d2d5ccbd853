import { CircleCheck, CircleHelp, CircleX, TriangleAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import { Badge } from '@/components/ui/badge';
import type { PartStatus } from '../lib/system-status';

const variants = {
  success: 'success',
  warning: 'warning',
  error: 'destructive',
  unknown: 'neutral',
} as const;
const icons = { success: CircleCheck, warning: TriangleAlert, error: CircleX, unknown: CircleHelp };

/** A status in colour, icon and words, so colour is never the only signal. */
export function LevelBadge({ level, children }: { level: PartStatus; children: ReactNode }) {
  const Icon = icons[level];
  return (
    <Badge variant={variants[level]}>
      <Icon aria-hidden className="size-3.5" />
      {children}
    </Badge>
  );
}
