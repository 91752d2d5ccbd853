import { CONFIG_DOMAINS, type ConfigDomain } from '@lumi/contract';
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import type { ActiveFilter, ConfigFilters } from '../lib/filter-items';

const ACTIVE_FILTERS: readonly ActiveFilter[] = ['all', 'active', 'inactive'];
const FILTER_PARAMS = { search: 'q', tag: 'tag', active: 'active' } as const;

function asDomain(value: string | null): ConfigDomain {
  return CONFIG_DOMAINS.find((domain) => domain === value) ?? CONFIG_DOMAINS[0];
}

/**
 * The selected tab and the list filters, kept in the URL (?tab=moods&q=…&tag=…&active=…) so a reload or
 * a shared link opens the same view. An unknown tab falls back to the first one.
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

  return { tab, filters, setTab, setFilter };
}
