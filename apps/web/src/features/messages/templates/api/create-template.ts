import type { Template, TemplateInput } from '@lumi/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { MESSAGING_PATH, messagingKeys } from '@/lib/messaging-keys';

/** POST /v1/messaging/templates: the new template is version 1. */
export function createTemplate(input: TemplateInput) {
  return api.post<Template>(`${MESSAGING_PATH}/templates`, input);
}

export function useCreateTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createTemplate,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: messagingKeys.templates }),
  });
}
