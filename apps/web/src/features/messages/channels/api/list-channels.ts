import type { Channel } from '@lumi/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '@/lib/api-client';
import { MESSAGING_PATH, messagingKeys } from '../../api/messaging-keys';

/** GET /v1/messaging/channels: every channel, by name (enabled and disabled). */
export function fetchChannels(signal?: AbortSignal) {
  return api.get<Channel[]>(`${MESSAGING_PATH}/channels`, { signal });
}

export function channelsQueryOptions() {
  return queryOptions({ queryKey: messagingKeys.channels, queryFn: ({ signal }) => fetchChannels(signal) });
}

/** Spec section 8: a channel load failure is logged; the query's state tells the caller the rest. */
export function useChannels() {
  const query = useQuery(channelsQueryOptions());
  useEffect(() => {
    if (query.error) console.error('Failed to load channels', query.error);
  }, [query.error]);
  return query;
}
