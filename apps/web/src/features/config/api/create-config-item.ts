import type { ConfigDomain, ConfigItem, ConfigItemInput } from '@lumi/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { configKeys, configPath } from './list-config-items';

/** POST /admin/api/config/{domain} */
export function createConfigItem({ domain, input }: { domain: ConfigDomain; input: ConfigItemInput }) {
  return api.post<ConfigItem>(configPath(domain), input);
}

export function useCreateConfigItem() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createConfigItem,
    // Spec section 4: lists are refetched after every change, and after a refusal too (it may be stale).
    onSettled: (_data, _error, { domain }) =>
      queryClient.invalidateQueries({ queryKey: configKeys.domain(domain) }),
  });
}
