import { GEMINI_WINDOWS } from '@lumi/contract';
import type { GeminiWindow } from './gemini-series';

/** The Metrics & Analytics tabs (spec section 2), as they appear in the URL. */
export const METRICS_TABS = [
  { value: 'llm-usage', label: 'LLM Usage' },
  { value: 'calls', label: 'Calls' },
  { value: 'token-budgets', label: 'Token Budgets' },
  { value: 'integrations', label: 'Integrations' },
] as const;
export type MetricsTab = (typeof METRICS_TABS)[number]['value'];

export const DEFAULT_TAB: MetricsTab = 'llm-usage';
export const DEFAULT_WINDOW: GeminiWindow = 24;

/** The tab named in the URL, or the first one for anything else. */
export function parseMetricsTab(value: string | null): MetricsTab {
  return METRICS_TABS.find((tab) => tab.value === value)?.value ?? DEFAULT_TAB;
}

/** The Gemini window named in the URL (24, 48 or 168 hours), or 24 for anything else. */
export function parseGeminiWindow(value: string | null): GeminiWindow {
  return GEMINI_WINDOWS.find((hours) => String(hours) === value) ?? DEFAULT_WINDOW;
}
