import { Skeleton } from '@/components/ui/skeleton';

/** What an editor shows while Monaco arrives: a placeholder of the same size. */
export function CodeEditorLoading({ height }: { height: string }) {
  return (
    <div role="status" aria-label="Loading editor" style={{ height }} className="rounded-md border p-3">
      <Skeleton className="h-full w-full" />
    </div>
  );
}
