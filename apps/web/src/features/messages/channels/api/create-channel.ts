import type { Channel, ChannelInput } from '@lumi/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { MESSAGING_PATH, messagingKeys } from '@/lib/messaging-keys';

/** POST /v1/messaging/channels */
export function createChannel(input: ChannelInput) {
  return api.post<Channel>(`${MESSAGING_PATH}/channels`, input);
}

export function useCreateChannel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createChannel,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: messagingKeys.channels }),
  });
}
