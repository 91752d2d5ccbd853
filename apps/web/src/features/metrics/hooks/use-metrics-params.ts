import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import { DEFAULT_AUTO_REFRESH, parseAutoRefresh, type AutoRefresh } from '../lib/auto-refresh';
import type { GeminiWindow } from '../lib/gemini-series';
import {
  DEFAULT_TAB,
  DEFAULT_WINDOW,
  parseGeminiWindow,
  parseMetricsTab,
  type MetricsTab,
} from '../lib/metrics-params';
import { parseTimeRange, timeRangeParams, type TimeRange } from '../lib/time-range';

/**
 * The active Metrics tab, the Gemini window, the time range and the auto-refresh interval, kept in the URL
 * so a reload or a shared link keeps them.
 */
export function useMetricsParams() {
  const [params, setParams] = useSearchParams();
  const tab = parseMetricsTab(params.get('tab'));
  const hours = parseGeminiWindow(params.get('hours'));
  const range = parseTimeRange(params.get('range'), params.get('from'), params.get('to'));
  const refresh = parseAutoRefresh(params.get('refresh'));

  const update = useCallback(
    (values: Record<string, string | null>) =>
      setParams((previous) => {
        const next = new URLSearchParams(previous);
        for (const [name, value] of Object.entries(values)) {
          if (value === null) next.delete(name);
          else next.set(name, value);
        }
        return next;
      }),
    [setParams],
  );

  const setTab = useCallback(
    (next: MetricsTab) => update({ tab: next === DEFAULT_TAB ? null : next }),
    [update],
  );
  const setHours = useCallback(
    (next: GeminiWindow) => update({ hours: next === DEFAULT_WINDOW ? null : String(next) }),
    [update],
  );
  const setRange = useCallback((next: TimeRange) => update(timeRangeParams(next)), [update]);
  const setRefresh = useCallback(
    (next: AutoRefresh) => update({ refresh: next === DEFAULT_AUTO_REFRESH ? null : next }),
    [update],
  );

  return { tab, hours, range, refresh, setTab, setHours, setRange, setRefresh };
}
