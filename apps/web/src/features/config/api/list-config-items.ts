import type { ConfigDomain, ConfigItem } from '@lumi/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const configKeys = {
  /** Everything of one domain: its list and the histories of its items. */
  domain: (domain: ConfigDomain) => ['config', domain] as const,
  items: (domain: ConfigDomain) => ['config', domain, 'items'] as const,
  revisions: (domain: ConfigDomain, id: number) => ['config', domain, 'revisions', id] as const,
};

/** The path of a domain's items, or of one item (spec section 7). */
export function configPath(domain: ConfigDomain, id?: number): string {
  return id === undefined ? `/admin/api/config/${domain}` : `/admin/api/config/${domain}/${id}`;
}

/** GET /admin/api/config/{domain}: every item of the domain, highest priority first. */
export function fetchConfigItems(domain: ConfigDomain, signal?: AbortSignal) {
  return api.get<ConfigItem[]>(configPath(domain), { signal });
}

export function configItemsQueryOptions(domain: ConfigDomain) {
  return queryOptions({
    queryKey: configKeys.items(domain),
    queryFn: ({ signal }) => fetchConfigItems(domain, signal),
  });
}

export function useConfigItems(domain: ConfigDomain) {
  return useQuery(configItemsQueryOptions(domain));
}
