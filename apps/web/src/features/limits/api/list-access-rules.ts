import type { AccessRuleListResponse } from '@lumi/contract';
import { api } from '@/lib/api-client';
import { useCursorPages } from '@/lib/use-cursor-pages';
import { LIMITS_PATH, limitKeys } from './limit-keys';

export const ACCESS_RULES_PATH = `${LIMITS_PATH}/access-rules`;

/** Entries listed per page (the contract's default; at most LIMITS_LIMITS.rulesPageMax). */
export const ACCESS_RULES_PAGE_SIZE = 50;

/** GET /limits/access-rules: a page of the bans and allowlist entries, newest first, expired ones included. */
export function fetchAccessRules(cursor: number | undefined, signal?: AbortSignal) {
  return api.get<AccessRuleListResponse>(ACCESS_RULES_PATH, {
    query: { limit: ACCESS_RULES_PAGE_SIZE, cursor },
    signal,
  });
}

export function useAccessRules() {
  return useCursorPages({
    queryKey: limitKeys.accessRules,
    fetchPage: (cursor, signal) => fetchAccessRules(cursor, signal),
  });
}
