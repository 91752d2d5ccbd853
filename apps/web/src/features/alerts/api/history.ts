import { ALERT_LIMITS, type AlertHistoryResponse } from '@lumi/contract';
import { api } from '@/lib/api-client';
import { useCursorPages } from '@/lib/use-cursor-pages';
import type { AlertHistoryFilters } from '../hooks/use-history-filters';
import { ALERTS_PATH, ALERTS_POLL_MS, alertKeys } from './alert-keys';

/** GET /alerts/history: state changes, newest first, older pages through the cursor. */
export function fetchHistory(filters: AlertHistoryFilters, cursor: number | undefined, signal?: AbortSignal) {
  return api.get<AlertHistoryResponse>(`${ALERTS_PATH}/history`, {
    query: {
      rule_id: filters.ruleId,
      state: filters.state,
      severity: filters.severity,
      from: filters.from,
      to: filters.to,
      cursor,
      limit: ALERT_LIMITS.historyDefault,
    },
    signal,
  });
}

export function useAlertHistory(filters: AlertHistoryFilters) {
  return useCursorPages({
    queryKey: alertKeys.history(filters),
    fetchPage: (cursor, signal) => fetchHistory(filters, cursor, signal),
    refetchInterval: ALERTS_POLL_MS,
  });
}
