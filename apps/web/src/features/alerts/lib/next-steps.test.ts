import { ALERT_CONDITION_TYPES, alertConditionSchema } from '@lumi/contract';
import { describe, expect, it } from 'vitest';
import { CONDITION_DEFAULTS } from './conditions';
import { nextStep } from '@lumi/contract';

describe('nextStep', () => {
  it.each(ALERT_CONDITION_TYPES)('%s: says what to do and links to a screen of the console', (type) => {
    // The editor's defaults leave the provider and the service for the operator to name.
    const filled = Object.fromEntries(
      Object.entries(CONDITION_DEFAULTS[type]).map(([key, value]) => [key, value === '' ? 'openai' : value]),
    );
    const step = nextStep(alertConditionSchema.parse(filled));
    expect(step.text.length).toBeGreaterThan(20);
    expect(step.label).not.toBe('');
    expect(step.to).toMatch(/^\/(overview|metrics|limits|messages)(\?|$)/);
  });

  it('opens the calls at least as slow as a latency rule’s threshold', () => {
    const condition = alertConditionSchema.parse({ ...CONDITION_DEFAULTS.llm_latency, ms: 4500 });
    expect(nextStep(condition).to).toBe('/metrics?tab=calls&min_latency_ms=4500');
  });
});
