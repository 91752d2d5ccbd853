import { render } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TimeSeriesChart } from './time-series-chart';

const HOUR_MS = 3_600_000;
const start = Date.parse('2026-11-20T00:00:00.000Z');
/** Six models, as the latency chart showed them: more than the spec's four colours. */
const models = [
  'gemini / gemini-1.5-pro',
  'gemini / gemini-1.5-flash',
  'gemini / gemini-2.0-flash',
  'openai / gpt-4o',
  'openai / gpt-4o-mini',
  'anthropic / claude-3-5-sonnet',
];
const rows = [0, 1, 2, 3].map((hour) => ({
  t: start + hour * HOUR_MS,
  values: Object.fromEntries(models.map((model, index) => [model, 500 + 100 * index + 10 * hour])),
}));

describe('TimeSeriesChart', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('draws six series in six colours, each with its own dash pattern too', () => {
    // jsdom lays nothing out: the chart's box gets the size a browser would give it (its legend none).
    vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
      return this.classList.contains('recharts-responsive-container')
        ? new DOMRect(0, 0, 600, 288)
        : new DOMRect();
    });
    const { container } = render(
      <TimeSeriesChart
        summary="p95 latency per hour by model"
        rows={rows}
        series={models.map((model) => ({ key: model, name: model }))}
        domain={[start, start + 3 * HOUR_MS]}
        interval="hour"
        formatValue={String}
        formatTick={String}
      />,
    );
    const lines = [...container.querySelectorAll('path.recharts-line-curve')];
    expect(lines).toHaveLength(6);
    expect(new Set(lines.map((line) => line.getAttribute('stroke'))).size).toBe(6);
    expect(new Set(lines.map((line) => line.getAttribute('stroke-dasharray') ?? '')).size).toBe(6);
  });
});
