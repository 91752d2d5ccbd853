import type { ConfigItem } from '@lumi/contract';

export type ActiveFilter = 'all' | 'active' | 'inactive';

export interface ConfigFilters {
  search: string;
  tag: string;
  active: ActiveFilter;
}

/** The items whose name contains the search (any case), that carry the tag and match the active state. */
export function filterItems(
  items: readonly ConfigItem[],
  { search, tag, active }: ConfigFilters,
): ConfigItem[] {
  const needle = search.trim().toLowerCase();
  return items.filter(
    (item) =>
      (!needle || item.name.toLowerCase().includes(needle)) &&
      (!tag || item.tags.includes(tag)) &&
      (active === 'all' || item.is_active === (active === 'active')),
  );
}

/** Every tag used in the domain, in alphabetical order, for the tag filter. */
export function tagsOf(items: readonly ConfigItem[]): string[] {
  return [...new Set(items.flatMap((item) => item.tags))].sort((a, b) => a.localeCompare(b));
}
