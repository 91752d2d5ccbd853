import { render, waitFor } from '@testing-library/react';
import { Line, LineChart } from 'recharts';
import { describe, expect, it } from 'vitest';
import { FittedAxis } from './fitted-axes';

const days = Array.from({ length: 30 }, (_, i) => `2026-11-${String(i + 1).padStart(2, '0')}`);

/** The x-axis labels a chart draws (recharts lays its axes out after the first render). */
async function labelsOf(container: HTMLElement): Promise<Element[]> {
  await waitFor(() => expect(container.querySelector('.recharts-xAxis-tick-labels text')).not.toBeNull());
  return [...container.querySelectorAll('.recharts-xAxis-tick-labels text')];
}

/** The x-axis labels a chart of `width` px draws for 30 days, 60 px a label. */
async function labelsAt(width: number): Promise<string[]> {
  const { container } = render(
    <LineChart
      width={width}
      height={200}
      data={days.map((date, i) => ({ date, value: i }))}
      margin={{ top: 0, right: 20, bottom: 0, left: 0 }}
    >
      <FittedAxis
        dataKey="date"
        candidates={days}
        labelWidth={60}
        tickFormatter={(date: string) => date.slice(5)}
      />
      <Line dataKey="value" isAnimationActive={false} />
    </LineChart>,
  );
  return (await labelsOf(container)).map((text) => text.textContent ?? '');
}

describe('FittedAxis', () => {
  it('labels as many days as fit, always the newest, counting back from it', async () => {
    const wide = await labelsAt(1220);
    expect(wide).toHaveLength(15);
    expect(wide.at(-1)).toBe('11-30');
    expect(wide.at(-2)).toBe('11-28');
    const narrow = await labelsAt(320);
    expect(narrow.length).toBeLessThanOrEqual(5);
    expect(narrow.at(-1)).toBe('11-30');
  });

  it('ends the newest label at its point when centring it would run past the chart', async () => {
    const { container } = render(
      <LineChart width={320} height={200} data={days.map((date) => ({ date }))} margin={{ right: 0 }}>
        <FittedAxis dataKey="date" candidates={days} labelWidth={60} />
      </LineChart>,
    );
    const labels = await labelsOf(container);
    expect(labels.at(-1)?.getAttribute('text-anchor')).toBe('end');
    expect(labels.at(0)?.getAttribute('text-anchor')).toBe('middle');
  });
});
