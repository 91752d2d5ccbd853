import type { Template } from '@lumi/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { MESSAGING_PATH, messagingKeys } from '@/lib/messaging-keys';

interface RestoreArgs {
  templateId: number;
  /** The version to bring back. */
  version: number;
  /** The version on screen, so a newer save by someone else is not overwritten (409). */
  currentVersion: number;
}

/** POST /v1/messaging/templates/{id}/versions/{n}/restore: the restore is saved as a new version. */
export function restoreTemplateVersion({ templateId, version, currentVersion }: RestoreArgs) {
  return api.post<Template>(`${MESSAGING_PATH}/templates/${templateId}/versions/${version}/restore`, {
    version: currentVersion,
  });
}

export function useRestoreTemplateVersion() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: restoreTemplateVersion,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: messagingKeys.templates }),
  });
}
