import { describe, expect, it } from 'vitest';
import { botHealthQueryOptions } from './get-bot-health';
import { cacheMetricsQueryOptions } from './get-cache-metrics';
import { integrationsQueryOptions } from './get-integrations';
import { llmUsageQueryOptions } from './get-llm-usage';
import { marketDataQueryOptions } from './get-market-data';

// Spec section 9: polling intervals.
describe('polling', () => {
  it.each([
    { name: 'bot health', options: botHealthQueryOptions(), expected: 30_000 },
    { name: 'market data', options: marketDataQueryOptions(), expected: 30_000 },
    { name: 'cache', options: cacheMetricsQueryOptions(), expected: 60_000 },
    { name: 'integrations', options: integrationsQueryOptions(), expected: 60_000 },
    { name: 'LLM usage', options: llmUsageQueryOptions(), expected: 60_000 },
  ])('$name: every $expected ms', ({ options, expected }) => {
    expect(options.refetchInterval).toBe(expected);
  });
});
