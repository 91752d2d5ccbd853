import { useInfiniteQuery, type QueryKey } from '@tanstack/react-query';

/** A page of a list read newest first: `next_cursor` names the next older page, null on the last one. */
interface CursorPage {
  next_cursor: number | null;
}

interface CursorPagesOptions<TPage extends CursorPage> {
  queryKey: QueryKey;
  /** One page: the first without a cursor, each later one from the previous page's `next_cursor`. */
  fetchPage: (cursor: number | undefined, signal: AbortSignal) => Promise<TPage>;
  /**
   * For a list that changes while it is open (alerts, deliveries): ask again this often; a function of the
   * pages loaded may say false (TanStack Query asks again for every page loaded).
   */
  refetchInterval?: number | ((pages: number) => number | false);
}

/**
 * A list paged through the contract's `cursor` / `next_cursor` pair (audit log, alert history, a contact
 * point's notifications, deliveries), shown a page at a time with Load more.
 */
export function useCursorPages<TPage extends CursorPage>({
  queryKey,
  fetchPage,
  refetchInterval,
}: CursorPagesOptions<TPage>) {
  return useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam, signal }) => fetchPage(pageParam, signal),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (lastPage) => lastPage.next_cursor ?? undefined,
    refetchInterval:
      typeof refetchInterval === 'function'
        ? (query) => refetchInterval(query.state.data?.pages.length ?? 0)
        : refetchInterval,
  });
}
