import type { ApiKeyCreated, ApiKeyCreateInput } from '@lumi/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { apiKeysKey } from './list-api-keys';

/** POST /admin/api-keys: the answer holds the key itself, this once. */
export function createApiKey(input: ApiKeyCreateInput) {
  return api.post<ApiKeyCreated>('/admin/api-keys', input);
}

export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createApiKey,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeysKey }),
  });
}
