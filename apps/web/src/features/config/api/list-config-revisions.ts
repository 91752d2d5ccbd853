import type { ConfigDomain, ConfigRevision } from '@lumi/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { configKeys, configPath } from './list-config-items';

/** GET /admin/api/config/{domain}/{id}/revisions: newest first; creation is revision 1. */
export function fetchConfigRevisions(domain: ConfigDomain, id: number, signal?: AbortSignal) {
  return api.get<ConfigRevision[]>(`${configPath(domain, id)}/revisions`, { signal });
}

export function configRevisionsQueryOptions(domain: ConfigDomain, id: number) {
  return queryOptions({
    queryKey: configKeys.revisions(domain, id),
    queryFn: ({ signal }) => fetchConfigRevisions(domain, id, signal),
  });
}

export function useConfigRevisions(domain: ConfigDomain, id: number) {
  return useQuery(configRevisionsQueryOptions(domain, id));
}
