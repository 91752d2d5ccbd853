import { llmCallContentSchema } from '@lumi/contract';
import { useQuery } from '@tanstack/react-query';
import { getParsed } from './get-parsed';
import { metricsKeys } from './metrics-keys';

/**
 * GET /metrics/llm/calls/{id}/content: the call's prompt and completion (llm:content:read). Each read is an
 * audited view, so it is fetched only when asked for and never again behind the operator's back.
 */
export function useLlmCallContent(id: string, enabled: boolean) {
  return useQuery({
    queryKey: metricsKeys.llmCallContent(id),
    queryFn: ({ signal }) =>
      getParsed(llmCallContentSchema, `/metrics/llm/calls/${encodeURIComponent(id)}/content`, { signal }),
    enabled,
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
    refetchOnWindowFocus: false,
  });
}
