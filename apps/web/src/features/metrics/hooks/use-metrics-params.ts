import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import type { GeminiWindow } from '../lib/gemini-series';
import {
  DEFAULT_TAB,
  DEFAULT_WINDOW,
  parseGeminiWindow,
  parseMetricsTab,
  type MetricsTab,
} from '../lib/metrics-params';

/** The active Metrics tab and Gemini window, kept in the URL so a reload or a shared link keeps them. */
export function useMetricsParams() {
  const [params, setParams] = useSearchParams();
  const tab = parseMetricsTab(params.get('tab'));
  const hours = parseGeminiWindow(params.get('hours'));

  const update = useCallback(
    (name: string, value: string | null) =>
      setParams((previous) => {
        const next = new URLSearchParams(previous);
        if (value === null) next.delete(name);
        else next.set(name, value);
        return next;
      }),
    [setParams],
  );

  const setTab = useCallback(
    (next: MetricsTab) => update('tab', next === DEFAULT_TAB ? null : next),
    [update],
  );
  const setHours = useCallback(
    (next: GeminiWindow) => update('hours', next === DEFAULT_WINDOW ? null : String(next)),
    [update],
  );

  return { tab, hours, setTab, setHours };
}
