import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { MESSAGING_PATH, messagingKeys } from '@/lib/messaging-keys';

/** DELETE /v1/messaging/channels/{id}/topics/{topic_id}: refused (409) while templates use the topic. */
export function deleteTopic({ channelId, topicId }: { channelId: number; topicId: number }) {
  return api.delete<{ ok: true }>(`${MESSAGING_PATH}/channels/${channelId}/topics/${topicId}`);
}

export function useDeleteTopic() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteTopic,
    onSuccess: (_result, { channelId }) =>
      void queryClient.invalidateQueries({ queryKey: messagingKeys.topics(channelId) }),
  });
}
