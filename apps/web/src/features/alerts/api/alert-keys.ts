import type { AlertHistoryFilters } from '../hooks/use-history-filters';

/** Query keys of the alerts endpoints; `all` invalidates every one of them after a change. */
export const alertKeys = {
  all: ['alerts'] as const,
  rules: ['alerts', 'rules'] as const,
  summary: ['alerts', 'summary'] as const,
  preview: (condition: unknown) => ['alerts', 'preview', condition] as const,
  contactPoints: ['alerts', 'contact-points'] as const,
  notifications: (contactPointId: number) =>
    ['alerts', 'contact-points', contactPointId, 'notifications'] as const,
  silences: ['alerts', 'silences'] as const,
  history: (filters: AlertHistoryFilters) => ['alerts', 'history', filters] as const,
};

export const ALERTS_PATH = '/alerts';

/**
 * Rules change state at each evaluation (every 30 s by default): the open screen and the Overview
 * banner ask again this often. TanStack Query pauses while the tab is hidden.
 */
export const ALERTS_POLL_MS = 10_000;
