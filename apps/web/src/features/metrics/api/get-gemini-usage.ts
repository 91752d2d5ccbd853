import { geminiUsageSchema } from '@lumi/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, ApiError } from '@/lib/api-client';
import { isGeminiAnswerEmpty, type GeminiWindow } from '../lib/gemini-series';
import { GEMINI_NOT_AVAILABLE, panelErrorMessage } from '../lib/panel-error';
import { UnexpectedResponseError } from './get-parsed';
import { metricsKeys } from './metrics-keys';
import { useAutoRefreshInterval } from '../hooks/auto-refresh-context';

/** Spec section 9: the Gemini call is tried up to 2 more times, 3 s apart. */
export const GEMINI_MAX_RETRIES = 2;
export const GEMINI_RETRY_DELAY_MS = 3_000;

/** The server answered, but with nothing to show. */
export class EmptyGeminiAnswerError extends Error {
  constructor() {
    super('The Gemini usage answer was empty');
  }
}

/**
 * GET /metrics/gemini-usage?hours= with a cache-busting timestamp and no-cache headers (spec section 7),
 * so a proxy never hands back an older window.
 */
export async function fetchGeminiUsage(hours: GeminiWindow, signal?: AbortSignal) {
  const body = await api.get<unknown>('/metrics/gemini-usage', {
    query: { hours, _t: Date.now() },
    headers: { 'cache-control': 'no-cache', pragma: 'no-cache' },
    signal,
  });
  if (isGeminiAnswerEmpty(body)) throw new EmptyGeminiAnswerError();
  const result = geminiUsageSchema.safeParse(body);
  if (!result.success) throw new UnexpectedResponseError('/metrics/gemini-usage', result.error.issues);
  return result.data;
}

/** Spec section 7: retried when empty or on any error but 401 and 403, which asking again cannot fix. */
export function shouldRetryGeminiUsage(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && (error.status === 401 || error.status === 403)) return false;
  return failureCount < GEMINI_MAX_RETRIES;
}

/** A missing service or an empty answer means Gemini metrics are not available. */
export function geminiErrorMessage(error: unknown): string {
  return error instanceof EmptyGeminiAnswerError
    ? GEMINI_NOT_AVAILABLE
    : panelErrorMessage(error, GEMINI_NOT_AVAILABLE);
}

export function geminiUsageQueryOptions(hours: GeminiWindow) {
  return queryOptions({
    queryKey: metricsKeys.geminiUsage(hours),
    queryFn: ({ signal }) => fetchGeminiUsage(hours, signal),
    retry: shouldRetryGeminiUsage,
    retryDelay: GEMINI_RETRY_DELAY_MS,
  });
}

export function useGeminiUsage(hours: GeminiWindow) {
  return useQuery({ ...geminiUsageQueryOptions(hours), refetchInterval: useAutoRefreshInterval() });
}
