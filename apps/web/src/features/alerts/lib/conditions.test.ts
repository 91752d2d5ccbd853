import { ALERT_CONDITION_TYPES, alertConditionSchema } from '@lumi/contract';
import { describe, expect, it } from 'vitest';
import { CONDITION_DEFAULTS, CONDITION_FIELDS, describeCondition } from './conditions';

describe('conditions', () => {
  it.each(ALERT_CONDITION_TYPES)('%s: the editor has an input for every field the contract reads', (type) => {
    const names = CONDITION_FIELDS[type].map((field) => field.name);
    expect(
      Object.keys(CONDITION_DEFAULTS[type])
        .filter((key) => key !== 'type')
        .sort(),
    ).toEqual([...names].sort());
  });

  it.each([
    [{ type: 'heartbeat_missing', seconds: 60 }, 'No heartbeat for 60 s'],
    [
      { type: 'errors', count: 5, minutes: 10, source: 'scheduler' },
      'More than 5 errors in 10 min (scheduler)',
    ],
    [
      { type: 'llm_cost', usd: 12.5, window: 'hour', provider: 'gemini' },
      'LLM spend in the last hour above $12.50 (gemini)',
    ],
    [
      { type: 'budget_usage', provider: 'openai', percent: 80 },
      'openai budget usage at or above 80\u00a0% today',
    ],
    [{ type: 'market_data_stale', minutes: 5, websocket: false }, 'Last candle older than 5 min'],
    [
      { type: 'delivery_failures', count: 3, minutes: 15 },
      'More than 3 failed or refused deliveries in 15 min',
    ],
  ])('describes %j as "%s"', (input, words) => {
    expect(describeCondition(alertConditionSchema.parse(input))).toBe(words);
  });
});
