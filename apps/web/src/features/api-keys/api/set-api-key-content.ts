import type { ApiKey, ApiKeyContentInput } from '@lumi/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { apiKeysKey } from './list-api-keys';

/** PUT /admin/api-keys/{id}/content: whether the key's calls keep their content, and what is redacted first. */
export function setApiKeyContent(id: number, input: ApiKeyContentInput) {
  return api.put<ApiKey>(`/admin/api-keys/${id}/content`, input);
}

export function useSetApiKeyContent(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ApiKeyContentInput) => setApiKeyContent(id, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeysKey }),
  });
}
