import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { topicsQueryOptions } from '@/lib/messaging-lists';

/** The topics of a channel, none while no channel is chosen; a load failure is logged (spec section 8). */
export function useTopics(channelId: number | null) {
  const query = useQuery({ ...topicsQueryOptions(channelId ?? 0), enabled: channelId !== null });
  useEffect(() => {
    if (query.error) console.error('Failed to load topics', query.error);
  }, [query.error]);
  return query;
}
