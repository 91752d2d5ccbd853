import type { TemplateVersion } from '@lumi/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { MESSAGING_PATH, messagingKeys } from '@/lib/messaging-keys';

/** GET /v1/messaging/templates/{id}/versions: every version with its content and settings, newest first. */
export function fetchTemplateVersions(templateId: number, signal?: AbortSignal) {
  return api.get<TemplateVersion[]>(`${MESSAGING_PATH}/templates/${templateId}/versions`, { signal });
}

export function templateVersionsQueryOptions(templateId: number) {
  return queryOptions({
    queryKey: messagingKeys.versions(templateId),
    queryFn: ({ signal }) => fetchTemplateVersions(templateId, signal),
  });
}

export function useTemplateVersions(templateId: number) {
  return useQuery(templateVersionsQueryOptions(templateId));
}
