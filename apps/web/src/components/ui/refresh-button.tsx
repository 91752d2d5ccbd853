import { RotateCw } from 'lucide-react';
import { Button } from '@/components/ui/button';

/** Asks a list's query again now; the icon turns while any fetch of it runs. */
export function RefreshButton({
  query,
}: {
  query: { isFetching: boolean; refetch: () => Promise<unknown> };
}) {
  return (
    <Button variant="ghost" size="sm" disabled={query.isFetching} onClick={() => void query.refetch()}>
      <RotateCw aria-hidden className={query.isFetching ? 'animate-spin' : undefined} />
      Refresh
    </Button>
  );
}
