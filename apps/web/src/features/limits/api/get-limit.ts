import type { Limit } from '@lumi/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { LIMITS_PATH, limitKeys } from './limit-keys';

/** GET /limits/{id}: one limit with its usage now; `id` null asks nothing. */
export function useLimit(id: number | null) {
  return useQuery({
    queryKey: limitKeys.one(id ?? 0),
    queryFn: ({ signal }) => api.get<Limit>(`${LIMITS_PATH}/${id}`, { signal }),
    enabled: id !== null,
    retry: false,
  });
}
