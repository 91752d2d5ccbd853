import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { channelsQueryOptions } from '@/lib/messaging-lists';

/** Spec section 8: a channel load failure is logged; the query's state tells the caller the rest. */
export function useChannels() {
  const query = useQuery(channelsQueryOptions());
  useEffect(() => {
    if (query.error) console.error('Failed to load channels', query.error);
  }, [query.error]);
  return query;
}
