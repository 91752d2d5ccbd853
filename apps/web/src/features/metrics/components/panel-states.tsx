import { CircleAlert, Inbox } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';

/**
 * The loading state of a panel: the rough shape of its content. A chart panel's keeps the height of its
 * totals and chart, so the panels below do not jump down when the figures arrive (layout shift).
 */
export function PanelSkeleton({
  label,
  rows = 4,
  chart = false,
}: {
  label: string;
  rows?: number;
  chart?: boolean;
}) {
  if (chart)
    return (
      <div role="status" aria-label={`Loading ${label}`} className="space-y-4">
        <Skeleton className="h-[7.5rem] w-full sm:h-[3.75rem]" />
        <Skeleton className="h-72 w-full" />
        {Array.from({ length: rows }, (_, index) => (
          <Skeleton key={index} className="h-8 w-full" />
        ))}
      </div>
    );
  return (
    <div role="status" aria-label={`Loading ${label}`} className="space-y-3">
      <Skeleton className="h-8 w-32" />
      {Array.from({ length: rows }, (_, index) => (
        <Skeleton key={index} className="h-4 w-full" />
      ))}
    </div>
  );
}

interface PanelErrorProps {
  /** Why the panel has nothing: 'Service not available', 'Failed to load data', … (spec section 8). */
  message: string;
  /** 'No data available' for the metric panels, 'No data' for the bot health card. */
  title?: string;
  onRetry?: () => void;
}

/** A panel that could not load: the cause, then 'No data available' with 'Unable to load metrics'. */
export function PanelError({ message, title = 'No data available', onRetry }: PanelErrorProps) {
  return (
    <div role="alert" className="flex flex-col items-center gap-1 py-6 text-center">
      <CircleAlert aria-hidden className="mb-1 size-6 text-destructive" />
      <p className="font-medium text-destructive">{message}</p>
      <p className="text-sm">{title}</p>
      <p className="text-xs text-muted-foreground">Unable to load metrics</p>
      {onRetry && (
        <Button variant="secondary" size="sm" className="mt-2" onClick={onRetry}>
          Retry
        </Button>
      )}
    </div>
  );
}

/** A panel that loaded but has nothing to show yet: said in words, never an empty frame. */
export function PanelEmpty({ children }: { children: ReactNode }) {
  return (
    <div className="flex flex-col items-center gap-1 py-6 text-center">
      <Inbox aria-hidden className="mb-1 size-6 text-muted-foreground" />
      <p className="font-medium">No data available</p>
      <p className="max-w-xs text-sm text-muted-foreground">{children}</p>
    </div>
  );
}
