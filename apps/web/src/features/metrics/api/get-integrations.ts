import { integrationMetricsSchema } from '@lumi/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getParsed } from './get-parsed';
import { metricsKeys } from './metrics-keys';
import { useAutoRefreshInterval } from '../hooks/auto-refresh-context';
import { refetchIntervalWithin } from '../lib/auto-refresh';

/** Spec section 9: integrations are polled every 60 s. */
export const INTEGRATIONS_POLL_MS = 60_000;

/**
 * GET /metrics/integrations. A failure or an answer of another shape is an error, shown as such: no
 * sample data (a deliberate change from spec section 7; docs/operators/console-guide.md: every screen shows
 * what the database holds).
 */
export function fetchIntegrations(signal?: AbortSignal) {
  return getParsed(integrationMetricsSchema, '/metrics/integrations', { signal });
}

export function integrationsQueryOptions() {
  return queryOptions({
    queryKey: metricsKeys.integrations,
    queryFn: ({ signal }) => fetchIntegrations(signal),
    refetchInterval: INTEGRATIONS_POLL_MS,
  });
}

export function useIntegrations() {
  const refetchInterval = refetchIntervalWithin(useAutoRefreshInterval(), INTEGRATIONS_POLL_MS);
  return useQuery({ ...integrationsQueryOptions(), refetchInterval });
}
