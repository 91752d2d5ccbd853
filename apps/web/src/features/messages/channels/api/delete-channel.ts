import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { MESSAGING_PATH, messagingKeys } from '@/lib/messaging-keys';

/** DELETE /v1/messaging/channels/{id}: refused (409, naming them) while templates use the channel. */
export function deleteChannel(id: number) {
  return api.delete<{ ok: true }>(`${MESSAGING_PATH}/channels/${id}`);
}

export function useDeleteChannel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteChannel,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: messagingKeys.channels }),
  });
}
