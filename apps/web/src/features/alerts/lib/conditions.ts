import type { AlertCondition, AlertConditionInput, AlertConditionType } from '@lumi/contract';
import { numberFormat } from '@/lib/intl';

/** One input of a condition type in the rule editor. */
export interface ConditionField {
  name: string;
  label: string;
  kind: 'number' | 'text' | 'window' | 'checkbox';
  /** Shown beside a number ('s', 'min', '%', 'USD', 'ms', 'calls'). */
  unit?: string;
  hint?: string;
  required?: boolean;
}

const minutes: ConditionField = {
  name: 'minutes',
  label: 'Over the last',
  kind: 'number',
  unit: 'min',
  required: true,
};
const provider: ConditionField = {
  name: 'provider',
  label: 'Provider',
  kind: 'text',
  hint: 'Leave empty for every provider',
};
const model: ConditionField = {
  name: 'model',
  label: 'Model',
  kind: 'text',
  hint: 'Leave empty for every model',
};
const minCalls: ConditionField = {
  name: 'min_calls',
  label: 'Only with at least',
  kind: 'number',
  unit: 'calls',
  required: true,
};

/**
 * The inputs of each condition type (docs/bot-developers/alerts.md, "Conditions"), in the order the editor
 * shows them.
 */
export const CONDITION_FIELDS: Record<AlertConditionType, readonly ConditionField[]> = {
  heartbeat_missing: [
    { name: 'seconds', label: 'No heartbeat for', kind: 'number', unit: 's', required: true },
  ],
  telegram_disconnected: [],
  errors: [
    { name: 'count', label: 'More than', kind: 'number', unit: 'errors', required: true },
    minutes,
    { name: 'source', label: 'Source', kind: 'text', hint: 'Leave empty for errors of every source' },
  ],
  llm_cost: [
    { name: 'usd', label: 'Spend above', kind: 'number', unit: 'USD', required: true },
    { name: 'window', label: 'Window', kind: 'window', required: true },
    provider,
    model,
  ],
  llm_failure_rate: [
    { name: 'percent', label: 'Failed calls above', kind: 'number', unit: '%', required: true },
    minutes,
    minCalls,
    provider,
    model,
  ],
  llm_latency: [
    { name: 'ms', label: 'Average latency above', kind: 'number', unit: 'ms', required: true },
    minutes,
    provider,
    model,
  ],
  budget_usage: [
    {
      name: 'provider',
      label: 'Provider',
      kind: 'text',
      required: true,
      hint: 'The provider whose daily budget to watch',
    },
    {
      name: 'percent',
      label: 'Usage at or above',
      kind: 'number',
      unit: '% of today’s budget',
      required: true,
      hint: 'Fires once a day per threshold',
    },
  ],
  integration_success_rate: [
    { name: 'service', label: 'Service', kind: 'text', required: true },
    { name: 'percent', label: 'Success rate below', kind: 'number', unit: '%', required: true },
    minutes,
    minCalls,
  ],
  market_data_stale: [
    { name: 'minutes', label: 'Last candle older than', kind: 'number', unit: 'min', required: true },
    { name: 'websocket', label: 'Also when the websocket is not connected', kind: 'checkbox' },
  ],
  cache_hit_rate: [
    { name: 'percent', label: 'Hit rate below', kind: 'number', unit: '%', required: true },
    minutes,
    { name: 'min_lookups', label: 'Only with at least', kind: 'number', unit: 'lookups', required: true },
  ],
  delivery_failures: [
    {
      name: 'count',
      label: 'More than',
      kind: 'number',
      unit: 'failed or refused deliveries',
      required: true,
    },
    minutes,
  ],
  limit_reached: [
    minutes,
    {
      name: 'limit_id',
      label: 'Limit id',
      kind: 'number',
      hint: 'Leave empty for every limit; the id is on the Limits screen',
    },
  ],
  spend_spike: [
    {
      name: 'factor',
      label: 'Spend at least',
      kind: 'number',
      unit: 'times its usual',
      required: true,
      hint: 'A chat’s or user’s spend in the last two hours against its average over the 7 days before',
    },
    { name: 'usd', label: 'And at least', kind: 'number', unit: 'USD', required: true },
  ],
};

/** A new condition of each type, with thresholds an operator would start from. */
export const CONDITION_DEFAULTS: Record<AlertConditionType, AlertConditionInput> = {
  heartbeat_missing: { type: 'heartbeat_missing', seconds: 60 },
  telegram_disconnected: { type: 'telegram_disconnected' },
  errors: { type: 'errors', count: 10, minutes: 5, source: '' },
  llm_cost: { type: 'llm_cost', usd: 10, window: 'day', provider: '', model: '' },
  llm_failure_rate: {
    type: 'llm_failure_rate',
    percent: 20,
    minutes: 10,
    min_calls: 10,
    provider: '',
    model: '',
  },
  llm_latency: { type: 'llm_latency', ms: 5000, minutes: 10, provider: '', model: '' },
  budget_usage: { type: 'budget_usage', provider: '', percent: 80 },
  integration_success_rate: {
    type: 'integration_success_rate',
    service: '',
    percent: 90,
    minutes: 10,
    min_calls: 10,
  },
  market_data_stale: { type: 'market_data_stale', minutes: 5, websocket: true },
  cache_hit_rate: { type: 'cache_hit_rate', percent: 50, minutes: 30, min_lookups: 20 },
  delivery_failures: { type: 'delivery_failures', count: 0, minutes: 15 },
  limit_reached: { type: 'limit_reached', minutes: 15, limit_id: null },
  spend_spike: { type: 'spend_spike', factor: 10, usd: 5 },
};

const number = numberFormat(undefined, { maximumFractionDigits: 2 });
const usd = numberFormat(undefined, {
  style: 'currency',
  currency: 'USD',
  maximumFractionDigits: 2,
});

function scope(...parts: Array<string | null | undefined>): string {
  const named = parts.filter((part): part is string => Boolean(part));
  return named.length > 0 ? ` (${named.join(', ')})` : '';
}

/** A condition in words, as the rules list shows it: "No heartbeat for 60 s". */
export function describeCondition(condition: AlertCondition): string {
  switch (condition.type) {
    case 'heartbeat_missing':
      return `No heartbeat for ${number.format(condition.seconds)} s`;
    case 'telegram_disconnected':
      return 'Bot not connected to Telegram';
    case 'errors':
      return `More than ${number.format(condition.count)} errors in ${condition.minutes} min${scope(condition.source)}`;
    case 'llm_cost':
      return `LLM spend ${condition.window === 'hour' ? 'in the last hour' : 'today'} above ${usd.format(condition.usd)}${scope(condition.provider, condition.model)}`;
    case 'llm_failure_rate':
      return `Over ${number.format(condition.percent)}\u00a0% of LLM calls failed in ${condition.minutes} min (at least ${number.format(condition.min_calls)} calls)${scope(condition.provider, condition.model)}`;
    case 'llm_latency':
      return `Average LLM latency above ${number.format(condition.ms)} ms in ${condition.minutes} min${scope(condition.provider, condition.model)}`;
    case 'budget_usage':
      return `${condition.provider} budget usage at or above ${number.format(condition.percent)}\u00a0% today`;
    case 'integration_success_rate':
      return `${condition.service} success rate below ${number.format(condition.percent)}\u00a0% in ${condition.minutes} min (at least ${number.format(condition.min_calls)} calls)`;
    case 'market_data_stale':
      return `Last candle older than ${condition.minutes} min${condition.websocket ? ', or websocket not connected' : ''}`;
    case 'cache_hit_rate':
      return `Cache hit rate below ${number.format(condition.percent)}\u00a0% in ${condition.minutes} min (at least ${number.format(condition.min_lookups)} lookups)`;
    case 'delivery_failures':
      return `More than ${number.format(condition.count)} failed or refused deliveries in ${condition.minutes} min`;
    case 'limit_reached':
      return `A call reached ${condition.limit_id === null ? 'a limit' : `limit ${condition.limit_id}`} in ${condition.minutes} min`;
    case 'spend_spike':
      return `A chat or user spent ${number.format(condition.factor)}× its usual and at least ${usd.format(condition.usd)} in 2 hours`;
  }
}
