import { Skeleton } from '@/components/ui/skeleton';

/** What a chart shows while recharts arrives (charts are loaded only on the screens that use them). */
export function ChartFallback() {
  return (
    <div role="status" aria-label="Loading chart">
      <Skeleton className="h-72 w-full" />
    </div>
  );
}
