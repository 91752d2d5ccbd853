import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';

interface LoadMoreProps {
  /** The list's paged query (`useCursorPages`). */
  pages: {
    hasNextPage: boolean;
    isFetchingNextPage: boolean;
    isFetchNextPageError: boolean;
    fetchNextPage: () => Promise<unknown>;
  };
  /** Shown when the next page fails to load; without it the failure shows only as the button again. */
  failure?: string;
}

/** The foot of a list read a page at a time: Load more while older pages remain. */
export function LoadMore({ pages, failure }: LoadMoreProps) {
  return (
    <>
      {failure && pages.isFetchNextPageError && <Alert variant="error">{failure}</Alert>}
      {pages.hasNextPage && (
        <div className="flex justify-center">
          <Button
            variant="secondary"
            disabled={pages.isFetchingNextPage}
            onClick={() => void pages.fetchNextPage()}
          >
            {pages.isFetchingNextPage ? 'Loading...' : 'Load more'}
          </Button>
        </div>
      )}
    </>
  );
}
