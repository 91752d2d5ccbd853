import { CONFIG_DOMAINS, type ConfigDomain } from '@lumi/contract';
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { idFromUrl } from '@/lib/url-filters';
import type { ActiveFilter, ConfigFilters } from '../lib/filter-items';

const ACTIVE_FILTERS: readonly ActiveFilter[] = ['all', 'active', 'inactive'];
const FILTER_PARAMS = { search: 'q', tag: 'tag', active: 'active' } as const;
const HISTORY_PARAMS = { item: 'history', revision: 'revision' } as const;

function asDomain(value: string | null): ConfigDomain {
  return CONFIG_DOMAINS.find((domain) => domain === value) ?? CONFIG_DOMAINS[0];
}

/**
 * The selected tab, the list filters and the item whose history is open, kept in the URL
 * (?tab=moods&q=…&tag=…&active=…&history=…&revision=…) so a reload or a shared link opens the same view.
 * An unknown tab falls back to the first one.
 */
export function useConfigParams() {
  const [params, setParams] = useSearchParams();
  const tab = asDomain(params.get('tab'));
  const filters = useMemo<ConfigFilters>(
    () => ({
      search: params.get(FILTER_PARAMS.search) ?? '',
      tag: params.get(FILTER_PARAMS.tag) ?? '',
      active: ACTIVE_FILTERS.find((value) => value === params.get(FILTER_PARAMS.active)) ?? 'all',
    }),
    [params],
  );

  // A change marker's link opens an item's history at a revision (?history=12&revision=3).
  const history = idFromUrl(params.get(HISTORY_PARAMS.item));
  const revision = idFromUrl(params.get(HISTORY_PARAMS.revision));

  /** Opening an item's history is a step Back undoes; closing it leaves the list as it was. */
  const setHistory = useCallback(
    (id: number | null) =>
      setParams(
        (previous) => {
          const updated = new URLSearchParams(previous);
          updated.delete(HISTORY_PARAMS.revision);
          if (id === null) updated.delete(HISTORY_PARAMS.item);
          else updated.set(HISTORY_PARAMS.item, String(id));
          return updated;
        },
        { replace: id === null },
      ),
    [setParams],
  );

  /** Another tab is another list: its filters start empty. */
  const setTab = useCallback((domain: ConfigDomain) => setParams({ tab: domain }), [setParams]);

  /** Filter changes replace the history entry, so Back leaves the screen instead of undoing keystrokes. */
  const setFilter = useCallback(
    <K extends keyof ConfigFilters>(name: K, value: ConfigFilters[K]) =>
      setParams(
        (previous) => {
          const updated = new URLSearchParams(previous);
          if (value && value !== 'all') updated.set(FILTER_PARAMS[name], value);
          else updated.delete(FILTER_PARAMS[name]);
          return updated;
        },
        { replace: true },
      ),
    [setParams],
  );

  return { tab, filters, setTab, setFilter, history, revision, setHistory };
}
