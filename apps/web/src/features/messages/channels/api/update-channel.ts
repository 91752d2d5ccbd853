import type { Channel, ChannelUpdate } from '@lumi/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { MESSAGING_PATH, messagingKeys } from '@/lib/messaging-keys';

/** PUT /v1/messaging/channels/{id}: the fields sent change, the others keep their values. */
export function updateChannel({ id, input }: { id: number; input: ChannelUpdate }) {
  return api.put<Channel>(`${MESSAGING_PATH}/channels/${id}`, input);
}

export function useUpdateChannel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateChannel,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: messagingKeys.channels }),
  });
}
