import type { IgnoredSpans } from '@lumi/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { apiKeysKey } from './list-api-keys';

/** GET /admin/api-keys/{id}/ignored-spans: the key's latest OTLP spans not stored as LLM calls, and why. */
export function fetchIgnoredSpans(id: number, signal?: AbortSignal) {
  return api.get<IgnoredSpans>(`/admin/api-keys/${id}/ignored-spans`, { signal });
}

export function useIgnoredSpans(id: number) {
  return useQuery({
    queryKey: [...apiKeysKey, id, 'ignored-spans'],
    queryFn: ({ signal }) => fetchIgnoredSpans(id, signal),
  });
}
