import { llmCallDetailSchema } from '@lumi/contract';
import { useQuery } from '@tanstack/react-query';
import { getParsed } from './get-parsed';
import { metricsKeys } from './metrics-keys';

/** GET /metrics/llm/calls/{id}: one call with everything Lumi keeps of it. */
export function useLlmCall(id: string) {
  return useQuery({
    queryKey: metricsKeys.llmCall(id),
    queryFn: ({ signal }) =>
      getParsed(llmCallDetailSchema, `/metrics/llm/calls/${encodeURIComponent(id)}`, { signal }),
  });
}
