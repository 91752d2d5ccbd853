import { TELEGRAM_ID_PATTERN } from '@lumi/contract';
import { timeRangeParams, type TimeRange } from './time-range';

/**
 * The Calls tab's filters (docs/operators/console-guide.md, "Calls"), named in the URL as the API names
 * them (GET /api/metrics/llm/calls), so a link from any panel opens the calls behind its figure.
 */
export const CALL_FILTERS = [
  { name: 'provider', label: 'Provider' },
  { name: 'model', label: 'Model' },
  { name: 'feature', label: 'Feature' },
  { name: 'no_feature', label: 'No feature' },
  { name: 'chat_id', label: 'Chat' },
  { name: 'user_id', label: 'User' },
  { name: 'error_type', label: 'Error type' },
  { name: 'failed', label: 'Failed' },
  { name: 'min_latency_ms', label: 'Latency at least (ms)' },
  { name: 'min_cost_usd', label: 'Cost at least (USD)' },
] as const;
export type CallFilterName = (typeof CALL_FILTERS)[number]['name'];
export type CallFilters = Partial<Record<CallFilterName, string>>;

/** Why a filter's value cannot be asked for, or null; the API would refuse it with the same reason. */
export function callFilterProblem(name: CallFilterName, value: string): string | null {
  switch (name) {
    case 'chat_id':
    case 'user_id':
      return TELEGRAM_ID_PATTERN.test(value) ? null : 'Must be a Telegram id such as -1001234567890';
    case 'min_latency_ms':
      return /^\d+$/.test(value) ? null : 'Must be a whole number of milliseconds';
    case 'min_cost_usd':
      return /^\d+(\.\d+)?$/.test(value) ? null : 'Must be an amount such as 0.05';
    case 'failed':
      return value === 'true' || value === 'false' ? null : 'Must be true or false';
    case 'no_feature':
      return value === 'true' ? null : 'Must be true';
    default:
      return value.trim() ? null : 'Must not be blank';
  }
}

/** The filters named in the URL; a value the API would refuse is left out, so a broken link still shows. */
export function parseCallFilters(params: URLSearchParams): CallFilters {
  const filters: CallFilters = {};
  for (const { name } of CALL_FILTERS) {
    const value = params.get(name);
    if (value !== null && callFilterProblem(name, value) === null) filters[name] = value;
  }
  return filters;
}

/** One string per set of filters, for query keys. */
export function callFiltersKey(filters: CallFilters): string {
  return CALL_FILTERS.map(({ name }) => filters[name] ?? '').join('|');
}

/** The link to the Calls tab with these filters over this range: what a panel's figure opens. */
export function callsLink(filters: CallFilters, range?: TimeRange): string {
  const params = new URLSearchParams({ tab: 'calls' });
  if (range) {
    for (const [name, value] of Object.entries(timeRangeParams(range)))
      if (value !== null) params.set(name, value);
  }
  for (const { name } of CALL_FILTERS) {
    const value = filters[name];
    if (value !== undefined) params.set(name, value);
  }
  return `/metrics?${params.toString()}`;
}
