import type { Channel, MessageType, Template, Topic } from '@lumi/contract';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { MESSAGING_PATH, messagingKeys } from '@/lib/messaging-keys';

/**
 * The channel, topic and template lists, shared by the Messages screen and the Alerts screen's contact
 * points: one query key each, so both read one cache entry and a change in one shows in the other.
 */

/** GET /v1/messaging/channels: every channel, by name (enabled and disabled). */
export function channelsQueryOptions() {
  return queryOptions({
    queryKey: messagingKeys.channels,
    queryFn: ({ signal }) => api.get<Channel[]>(`${MESSAGING_PATH}/channels`, { signal }),
  });
}

/** GET /v1/messaging/channels/{id}/topics: the channel's forum topics, by name. */
export function topicsQueryOptions(channelId: number) {
  return queryOptions({
    queryKey: messagingKeys.topics(channelId),
    queryFn: ({ signal }) => api.get<Topic[]>(`${MESSAGING_PATH}/channels/${channelId}/topics`, { signal }),
  });
}

export interface TemplateListFilters {
  channelId: number | null;
  messageType: MessageType | null;
}

/** GET /v1/messaging/templates: by name, filtered by channel and message type on the server. */
export function templatesQueryOptions(filters: TemplateListFilters) {
  return queryOptions({
    queryKey: messagingKeys.templateList(filters),
    queryFn: ({ signal }) =>
      api.get<Template[]>(`${MESSAGING_PATH}/templates`, {
        query: { channel_id: filters.channelId, message_type: filters.messageType },
        signal,
      }),
    // Keep the current list on screen while another filter loads, instead of flashing skeletons.
    placeholderData: keepPreviousData,
  });
}
