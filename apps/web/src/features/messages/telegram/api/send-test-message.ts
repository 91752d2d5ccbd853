import type { TestSendResult } from '@lumi/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { MESSAGING_PATH, messagingKeys } from '@/lib/messaging-keys';

interface SendTestArgs {
  templateId: number;
  data: Record<string, unknown>;
}

/** POST /v1/messaging/templates/{id}/test: the Test panel sends only data (spec section 7). */
export function sendTestMessage({ templateId, data }: SendTestArgs) {
  return api.post<TestSendResult>(`${MESSAGING_PATH}/templates/${templateId}/test`, { data });
}

export function useSendTestMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendTestMessage,
    // Every attempt is recorded, the failed ones too.
    onSettled: (_result, _error, { templateId }) =>
      void queryClient.invalidateQueries({ queryKey: messagingKeys.testHistory(templateId) }),
  });
}
