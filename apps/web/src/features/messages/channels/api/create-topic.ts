import type { Topic, TopicInput } from '@lumi/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { MESSAGING_PATH, messagingKeys } from '@/lib/messaging-keys';

/** POST /v1/messaging/channels/{id}/topics */
export function createTopic({ channelId, input }: { channelId: number; input: TopicInput }) {
  return api.post<Topic>(`${MESSAGING_PATH}/channels/${channelId}/topics`, input);
}

export function useCreateTopic() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createTopic,
    onSuccess: (_topic, { channelId }) =>
      void queryClient.invalidateQueries({ queryKey: messagingKeys.topics(channelId) }),
  });
}
