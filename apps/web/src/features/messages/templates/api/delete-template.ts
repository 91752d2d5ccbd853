import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { MESSAGING_PATH, messagingKeys } from '@/lib/messaging-keys';

/**
 * DELETE /v1/messaging/templates/{id}?version=: the template disappears (its versions stay for the audit);
 * 409 with the current template when someone saved it since.
 */
export function deleteTemplate({ id, version }: { id: number; version: number }) {
  return api.delete<{ ok: true }>(`${MESSAGING_PATH}/templates/${id}`, { query: { version } });
}

export function useDeleteTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteTemplate,
    onSettled: () => queryClient.invalidateQueries({ queryKey: messagingKeys.templates }),
  });
}
