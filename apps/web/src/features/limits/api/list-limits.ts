import type { LimitListResponse } from '@lumi/contract';
import { api } from '@/lib/api-client';
import { useCursorPages } from '@/lib/use-cursor-pages';
import { LIMITS_PATH, LIMITS_POLL_MS, limitKeys } from './limit-keys';

/** Limits listed per page (the contract's default; at most LIMITS_LIMITS.limitsPageMax). */
export const LIMITS_PAGE_SIZE = 50;

/**
 * GET /limits: a page of the limits, newest first, each with its usage now (for each chat or user, the five
 * nearest it) and its denials, and how many there are.
 */
export function fetchLimits(cursor: number | undefined, signal?: AbortSignal) {
  return api.get<LimitListResponse>(LIMITS_PATH, { query: { limit: LIMITS_PAGE_SIZE, cursor }, signal });
}

export function useLimits() {
  return useCursorPages({
    queryKey: limitKeys.list,
    fetchPage: (cursor, signal) => fetchLimits(cursor, signal),
    // Each page reads its limits' usage: asked again while one is shown; with more, after a change only.
    refetchInterval: (pages) => (pages > 1 ? false : LIMITS_POLL_MS),
  });
}
