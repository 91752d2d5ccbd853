import type { Topic, TopicUpdate } from '@lumi/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { MESSAGING_PATH, messagingKeys } from '@/lib/messaging-keys';

interface UpdateTopicArgs {
  channelId: number;
  topicId: number;
  input: TopicUpdate;
}

/** PUT /v1/messaging/channels/{id}/topics/{topic_id}: the fields sent change, the others stay. */
export function updateTopic({ channelId, topicId, input }: UpdateTopicArgs) {
  return api.put<Topic>(`${MESSAGING_PATH}/channels/${channelId}/topics/${topicId}`, input);
}

export function useUpdateTopic() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateTopic,
    onSuccess: (_topic, { channelId }) =>
      void queryClient.invalidateQueries({ queryKey: messagingKeys.topics(channelId) }),
  });
}
