import { ALERT_SEVERITIES, ALERT_STATES, type AlertSeverity, type AlertState } from '@lumi/contract';
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';

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

function asId(value: string | null): number | null {
  const id = Number(value);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

function asTime(value: string | null): string | null {
  return value && !Number.isNaN(Date.parse(value)) ? new Date(value).toISOString() : null;
}

/**
 * The history's filters, kept in the URL so a reload or a shared link opens the same list; unknown
 * values count as no filter. A change replaces the history entry, so Back leaves the screen.
 */
export function useHistoryFilters() {
  const [params, setParams] = useSearchParams();
  const rule = params.get(HISTORY_PARAMS.ruleId);
  const state = params.get(HISTORY_PARAMS.state);
  const severity = params.get(HISTORY_PARAMS.severity);
  const from = params.get(HISTORY_PARAMS.from);
  const to = params.get(HISTORY_PARAMS.to);
  const filters = useMemo<AlertHistoryFilters>(
    () => ({
      ruleId: asId(rule),
      state: ALERT_STATES.find((candidate) => candidate === state) ?? null,
      severity: ALERT_SEVERITIES.find((candidate) => candidate === severity) ?? null,
      from: asTime(from),
      to: asTime(to),
    }),
    [rule, state, severity, from, to],
  );

  const setFilter = useCallback(
    <K extends keyof AlertHistoryFilters>(name: K, value: AlertHistoryFilters[K]) =>
      setParams(
        (previous) => {
          const updated = new URLSearchParams(previous);
          if (value === null) updated.delete(HISTORY_PARAMS[name]);
          else updated.set(HISTORY_PARAMS[name], String(value));
          return updated;
        },
        { replace: true },
      ),
    [setParams],
  );

  const clearFilters = useCallback(
    () =>
      setParams(
        (previous) => {
          const updated = new URLSearchParams(previous);
          for (const name of Object.values(HISTORY_PARAMS)) updated.delete(name);
          return updated;
        },
        { replace: true },
      ),
    [setParams],
  );

  return { filters, setFilter, clearFilters };
}
