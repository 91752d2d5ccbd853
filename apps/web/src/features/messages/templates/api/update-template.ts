import { templateSchema, type Template, type TemplateUpdate } from '@lumi/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, ApiError } from '@/lib/api-client';
import { MESSAGING_PATH, messagingKeys } from '@/lib/messaging-keys';

/** PUT /v1/messaging/templates/{id}: `version` is the one the edit started from (409 when stale). */
export function updateTemplate({ id, input }: { id: number; input: TemplateUpdate }) {
  return api.put<Template>(`${MESSAGING_PATH}/templates/${id}`, input);
}

export function useUpdateTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateTemplate,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: messagingKeys.templates }),
  });
}

/** The template as someone else saved it, when a save failed because the edit started from an old version. */
export function staleSaveCurrent(error: unknown): Template | null {
  if (!(error instanceof ApiError) || error.status !== 409) return null;
  const body = error.body as { current?: unknown } | undefined;
  const current = templateSchema.safeParse(body?.current);
  return current.success ? current.data : null;
}
