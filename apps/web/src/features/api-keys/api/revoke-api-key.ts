import type { ApiKey } from '@lumi/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { apiKeysKey } from './list-api-keys';

/** DELETE /admin/api-keys/{id}: revokes at once; the key stays listed as revoked. */
export function revokeApiKey(id: number) {
  return api.delete<ApiKey>(`/admin/api-keys/${id}`);
}

export function useRevokeApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeApiKey,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeysKey }),
  });
}
