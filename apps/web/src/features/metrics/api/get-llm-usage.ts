import { llmUsageSchema } from '@lumi/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getParsed } from './get-parsed';
import { metricsKeys } from './metrics-keys';

/** The window of the LLM usage chart, in days (telemetry issue: `days=30`). */
export const LLM_USAGE_DAYS = 30;

/** GET /metrics/llm-usage?days= */
export function fetchLlmUsage(days: number, signal?: AbortSignal) {
  return getParsed(llmUsageSchema, '/metrics/llm-usage', { query: { days }, signal });
}

export function llmUsageQueryOptions(days = LLM_USAGE_DAYS) {
  return queryOptions({
    queryKey: metricsKeys.llmUsage(days),
    queryFn: ({ signal }) => fetchLlmUsage(days, signal),
  });
}

export function useLlmUsage() {
  return useQuery(llmUsageQueryOptions());
}
