import type { AccessRule } from '@lumi/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { LIMITS_PATH, limitKeys } from './limit-keys';

export const ACCESS_RULES_PATH = `${LIMITS_PATH}/access-rules`;

/** GET /limits/access-rules: bans and allowlist entries, newest first, expired ones included. */
export function fetchAccessRules(signal?: AbortSignal) {
  return api.get<{ rules: AccessRule[] }>(ACCESS_RULES_PATH, { signal });
}

export function useAccessRules() {
  return useQuery({ queryKey: limitKeys.accessRules, queryFn: ({ signal }) => fetchAccessRules(signal) });
}
