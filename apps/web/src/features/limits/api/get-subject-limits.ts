import type { AccessSubjectKind, SubjectLimits } from '@lumi/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { LIMITS_PATH, limitKeys } from './limit-keys';

/** GET /limits/subjects/{kind}/{subject}: a chat's or user's ban or allowlist entry and its limits now. */
export function fetchSubjectLimits(kind: AccessSubjectKind, subject: string, signal?: AbortSignal) {
  return api.get<SubjectLimits>(`${LIMITS_PATH}/subjects/${kind}/${encodeURIComponent(subject)}`, { signal });
}

/** Asked only while `enabled` (the popover is open), so a table of chats sends nothing until one is opened. */
export function useSubjectLimits(kind: AccessSubjectKind, subject: string, enabled: boolean) {
  return useQuery({
    queryKey: limitKeys.subject(kind, subject),
    queryFn: ({ signal }) => fetchSubjectLimits(kind, subject, signal),
    enabled,
  });
}
