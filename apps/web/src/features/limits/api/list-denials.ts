import type { LimitDenialsResponse } from '@lumi/contract';
import { api } from '@/lib/api-client';
import { useCursorPages } from '@/lib/use-cursor-pages';
import type { DenialFilters } from '../hooks/use-denial-filters';
import { LIMITS_PATH, LIMITS_POLL_MS, limitKeys } from './limit-keys';

/** Denials listed per page (the contract's default; at most LIMITS_LIMITS.denialsPageMax). */
export const DENIALS_PAGE_SIZE = 50;

/** GET /limits/denials: denied calls, newest first, older pages through the cursor, and the 24-hour count. */
export function fetchDenials(filters: DenialFilters, cursor: number | undefined, signal?: AbortSignal) {
  return api.get<LimitDenialsResponse>(`${LIMITS_PATH}/denials`, {
    query: {
      limit: DENIALS_PAGE_SIZE,
      cursor,
      chat_id: filters.chatId,
      user_id: filters.userId,
      limit_id: filters.limitId,
    },
    signal,
  });
}

export function useDenials(filters: DenialFilters) {
  return useCursorPages({
    queryKey: limitKeys.denials(filters),
    fetchPage: (cursor, signal) => fetchDenials(filters, cursor, signal),
    refetchInterval: LIMITS_POLL_MS,
  });
}
