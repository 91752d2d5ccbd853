import { botHealthSchema } from '@lumi/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getParsed } from './get-parsed';
import { metricsKeys } from './metrics-keys';

/** Spec section 9: bot health is polled every 30 s. */
export const BOT_HEALTH_POLL_MS = 30_000;

/** GET /metrics/bot-health */
export function fetchBotHealth(signal?: AbortSignal) {
  return getParsed(botHealthSchema, '/metrics/bot-health', { signal });
}

export function botHealthQueryOptions() {
  return queryOptions({
    queryKey: metricsKeys.botHealth,
    queryFn: ({ signal }) => fetchBotHealth(signal),
    refetchInterval: BOT_HEALTH_POLL_MS,
  });
}

export function useBotHealth() {
  return useQuery(botHealthQueryOptions());
}
