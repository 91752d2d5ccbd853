import { useCallback } from 'react';
import { useSearchParams } from 'react-router';

/** The Users list's search text and page, kept in the URL so a reload or a shared link keeps them. */
export function useUserListParams() {
  const [params, setParams] = useSearchParams();
  const search = params.get('search') ?? '';
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);

  const setPage = useCallback(
    (next: number) =>
      setParams((previous) => {
        const updated = new URLSearchParams(previous);
        if (next > 1) updated.set('page', String(next));
        else updated.delete('page');
        return updated;
      }),
    [setParams],
  );

  /** A new search starts again at page 1 (spec: Users); typing replaces the history entry. */
  const setSearch = useCallback(
    (next: string) =>
      setParams(
        (previous) => {
          const updated = new URLSearchParams(previous);
          if (next) updated.set('search', next);
          else updated.delete('search');
          updated.delete('page');
          return updated;
        },
        { replace: true },
      ),
    [setParams],
  );

  return { search, page, setSearch, setPage };
}
