import { llmUsageSchema } from '@lumi/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getParsed } from './get-parsed';
import { metricsKeys } from './metrics-keys';
import { useAutoRefreshInterval } from '../hooks/auto-refresh-context';
import { refetchIntervalWithin } from '../lib/auto-refresh';

/**
 * The LLM usage chart's ranges in days; a week by default (docs/operators/metrics.md, "The dashboards"; a
 * month was mostly a flat zero line).
 */
export const LLM_USAGE_RANGES = [7, 30, 90] as const;
export type LlmUsageDays = (typeof LLM_USAGE_RANGES)[number];
export const DEFAULT_LLM_USAGE_DAYS: LlmUsageDays = 7;

/**
 * Polled as often as cache and integrations are (spec section 9), so every panel of the Overview moves
 * within a minute.
 */
export const LLM_USAGE_POLL_MS = 60_000;

/** GET /metrics/llm-usage?days= */
export function fetchLlmUsage(days: number, signal?: AbortSignal) {
  return getParsed(llmUsageSchema, '/metrics/llm-usage', { query: { days }, signal });
}

export function llmUsageQueryOptions(days: LlmUsageDays = DEFAULT_LLM_USAGE_DAYS) {
  return queryOptions({
    queryKey: metricsKeys.llmUsage(days),
    queryFn: ({ signal }) => fetchLlmUsage(days, signal),
    refetchInterval: LLM_USAGE_POLL_MS,
  });
}

export function useLlmUsage(days: LlmUsageDays) {
  const refetchInterval = refetchIntervalWithin(useAutoRefreshInterval(), LLM_USAGE_POLL_MS);
  return useQuery({ ...llmUsageQueryOptions(days), refetchInterval });
}
