import type { TestSendRecord } from '@lumi/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { MESSAGING_PATH, messagingKeys } from '@/lib/messaging-keys';

/** GET /v1/messaging/templates/{id}/test-history: the template's test sends, newest first. */
export function fetchTestHistory(templateId: number, signal?: AbortSignal) {
  return api.get<TestSendRecord[]>(`${MESSAGING_PATH}/templates/${templateId}/test-history`, { signal });
}

export function testHistoryQueryOptions(templateId: number) {
  return queryOptions({
    queryKey: messagingKeys.testHistory(templateId),
    queryFn: ({ signal }) => fetchTestHistory(templateId, signal),
  });
}

export function useTestHistory(templateId: number) {
  return useQuery(testHistoryQueryOptions(templateId));
}
