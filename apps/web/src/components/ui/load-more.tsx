import type { MouseEvent } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { focusFirstAdded, listBefore } from '@/lib/focus-in-place';

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

/**
 * The foot of a list read a page at a time: Load more while older pages remain. When the last page is in
 * and the button goes, focus goes to the first row it added (lib/focus-in-place.ts), not the page's start.
 */
export function LoadMore({ pages, failure }: LoadMoreProps) {
  const loadMore = async (event: MouseEvent<HTMLButtonElement>) => {
    const foot = event.currentTarget.parentElement;
    const list = foot && listBefore(foot);
    const before = list?.children.length ?? 0;
    await pages.fetchNextPage();
    // After React has shown the page.
    requestAnimationFrame(() => {
      if (list?.isConnected) focusFirstAdded(list, before);
    });
  };
  return (
    <>
      {failure && pages.isFetchNextPageError && <Alert variant="error">{failure}</Alert>}
      {pages.hasNextPage && (
        <div className="flex justify-center">
          <Button
            variant="secondary"
            disabled={pages.isFetchingNextPage}
            onClick={(event) => void loadMore(event)}
          >
            {pages.isFetchingNextPage ? 'Loading...' : 'Load more'}
          </Button>
        </div>
      )}
    </>
  );
}
