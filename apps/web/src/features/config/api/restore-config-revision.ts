import type { ConfigDomain, ConfigItem } from '@lumi/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { configKeys, configPath } from './list-config-items';

interface RestoreArgs {
  domain: ConfigDomain;
  id: number;
  revision: number;
  /** The version on screen, so a change made meanwhile is not silently replaced. */
  version: number;
}

/** POST /admin/api/config/{domain}/{id}/revisions/{revision}/restore: brings it back as a new revision. */
export function restoreConfigRevision({ domain, id, revision, version }: RestoreArgs) {
  return api.post<ConfigItem>(`${configPath(domain, id)}/revisions/${revision}/restore`, { version });
}

export function useRestoreConfigRevision() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: restoreConfigRevision,
    onSettled: (_data, _error, { domain }) =>
      queryClient.invalidateQueries({ queryKey: configKeys.domain(domain) }),
  });
}
