import { ALERT_SEVERITIES, ALERT_STATES, type AlertSeverity, type AlertState } from '@lumi/contract';
import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { idFromUrl, useUrlFilterSetters } from '@/lib/url-filters';

/** The history's filters, as they sit in the URL (?view=history&rule_id=3&state=firing&from=…&to=…). */
export interface AlertHistoryFilters {
  ruleId: number | null;
  state: AlertState | null;
  severity: AlertSeverity | null;
  /** ISO times. */
  from: string | null;
  to: string | null;
}

export const HISTORY_PARAMS = {
  ruleId: 'rule_id',
  state: 'state',
  severity: 'severity',
  from: 'from',
  to: 'to',
} as const;

function asTime(value: string | null): string | null {
  return value && !Number.isNaN(Date.parse(value)) ? new Date(value).toISOString() : null;
}

/**
 * The history's filters, kept in the URL so a reload or a shared link opens the same list; unknown
 * values count as no filter. A change replaces the history entry, so Back leaves the screen.
 */
export function useHistoryFilters() {
  const [params] = useSearchParams();
  const rule = params.get(HISTORY_PARAMS.ruleId);
  const state = params.get(HISTORY_PARAMS.state);
  const severity = params.get(HISTORY_PARAMS.severity);
  const from = params.get(HISTORY_PARAMS.from);
  const to = params.get(HISTORY_PARAMS.to);
  const filters = useMemo<AlertHistoryFilters>(
    () => ({
      ruleId: idFromUrl(rule),
      state: ALERT_STATES.find((candidate) => candidate === state) ?? null,
      severity: ALERT_SEVERITIES.find((candidate) => candidate === severity) ?? null,
      from: asTime(from),
      to: asTime(to),
    }),
    [rule, state, severity, from, to],
  );

  const { setFilter, clearFilters } = useUrlFilterSetters<AlertHistoryFilters>(HISTORY_PARAMS);

  return { filters, setFilter, clearFilters };
}
