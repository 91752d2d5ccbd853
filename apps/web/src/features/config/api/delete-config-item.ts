import type { ConfigDomain } from '@lumi/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { configKeys, configPath } from './list-config-items';

/** DELETE /admin/api/config/{domain}/{id}?version=: refused with 409 when the item changed since. */
export function deleteConfigItem({
  domain,
  id,
  version,
}: {
  domain: ConfigDomain;
  id: number;
  version: number;
}) {
  return api.delete<{ ok: true }>(configPath(domain, id), { query: { version } });
}

export function useDeleteConfigItem() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteConfigItem,
    onSettled: (_data, _error, { domain }) =>
      queryClient.invalidateQueries({ queryKey: configKeys.domain(domain) }),
  });
}
