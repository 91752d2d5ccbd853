import type { ConfigDomain, ConfigItem, ConfigItemUpdate } from '@lumi/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { configKeys, configPath } from './list-config-items';

interface UpdateConfigItemArgs {
  domain: ConfigDomain;
  id: number;
  /** Carries the version the editor loaded; a newer one on the server answers 409 with `current`. */
  input: ConfigItemUpdate;
}

/** PUT /admin/api/config/{domain}/{id} */
export function updateConfigItem({ domain, id, input }: UpdateConfigItemArgs) {
  return api.put<ConfigItem>(configPath(domain, id), input);
}

export function useUpdateConfigItem() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateConfigItem,
    onSettled: (_data, _error, { domain }) =>
      queryClient.invalidateQueries({ queryKey: configKeys.domain(domain) }),
  });
}
