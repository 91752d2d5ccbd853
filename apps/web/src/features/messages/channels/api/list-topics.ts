import type { Topic } from '@lumi/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '@/lib/api-client';
import { MESSAGING_PATH, messagingKeys } from '../../api/messaging-keys';

/** GET /v1/messaging/channels/{id}/topics: the channel's forum topics, by name. */
export function fetchTopics(channelId: number, signal?: AbortSignal) {
  return api.get<Topic[]>(`${MESSAGING_PATH}/channels/${channelId}/topics`, { signal });
}

export function topicsQueryOptions(channelId: number) {
  return queryOptions({
    queryKey: messagingKeys.topics(channelId),
    queryFn: ({ signal }) => fetchTopics(channelId, signal),
  });
}

/** The topics of a channel, none while no channel is chosen; a load failure is logged (spec section 8). */
export function useTopics(channelId: number | null) {
  const query = useQuery({ ...topicsQueryOptions(channelId ?? 0), enabled: channelId !== null });
  useEffect(() => {
    if (query.error) console.error('Failed to load topics', query.error);
  }, [query.error]);
  return query;
}
