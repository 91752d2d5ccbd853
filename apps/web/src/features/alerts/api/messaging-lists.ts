import type { Channel, Template, Topic } from '@lumi/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/**
 * The channels, topics and templates a Telegram contact point chooses from, read from the messaging API
 * (features do not import each other). The keys are the Messages screen's, so both share one cache.
 */
const MESSAGING_PATH = '/v1/messaging';

export function useChannelOptions() {
  return useQuery({
    queryKey: ['messaging', 'channels'],
    queryFn: ({ signal }) => api.get<Channel[]>(`${MESSAGING_PATH}/channels`, { signal }),
  });
}

export function useTopicOptions(channelId: number | null) {
  return useQuery({
    queryKey: ['messaging', 'channels', channelId, 'topics'],
    queryFn: ({ signal }) => api.get<Topic[]>(`${MESSAGING_PATH}/channels/${channelId}/topics`, { signal }),
    enabled: channelId !== null,
  });
}

/** The alert templates (message type `alert`): the ones made to carry an alert's variables. */
export function useAlertTemplateOptions() {
  return useQuery({
    queryKey: ['messaging', 'templates', 'list', { channelId: null, messageType: 'alert' }],
    queryFn: ({ signal }) =>
      api.get<Template[]>(`${MESSAGING_PATH}/templates`, { query: { message_type: 'alert' }, signal }),
  });
}
