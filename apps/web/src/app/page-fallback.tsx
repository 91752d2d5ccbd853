import { Skeleton } from '@/components/ui/skeleton';

/** What a screen shows while its lazily loaded chunk arrives: the rough shape of a page. */
export function PageFallback() {
  return (
    <div role="status" aria-label="Loading page" className="space-y-6">
      <div className="space-y-2">
        <Skeleton className="h-7 w-56" />
        <Skeleton className="h-4 w-80 max-w-full" />
      </div>
      <div className="grid gap-4 md:grid-cols-3">
        <Skeleton className="h-32" />
        <Skeleton className="h-32" />
        <Skeleton className="h-32" />
      </div>
      <Skeleton className="h-64" />
    </div>
  );
}

/** The whole-window message while the session is being restored or a top-level chunk loads. */
export function FullPageLoading() {
  return (
    <div role="status" className="flex min-h-dvh items-center justify-center text-sm text-muted-foreground">
      Loading...
    </div>
  );
}
