import type { ConfigDomain, ConfigImportResult } from '@lumi/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { configKeys, configPath } from './list-config-items';

/**
 * POST /admin/api/config/{domain}/import: every item is checked first, then all are applied or none;
 * a 422 names each problem as `items.<index>.<field>`.
 */
export function importConfig({ domain, items }: { domain: ConfigDomain; items: unknown[] }) {
  return api.post<ConfigImportResult>(`${configPath(domain)}/import`, { items });
}

export function useImportConfig() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: importConfig,
    onSettled: (_data, _error, { domain }) =>
      queryClient.invalidateQueries({ queryKey: configKeys.domain(domain) }),
  });
}
