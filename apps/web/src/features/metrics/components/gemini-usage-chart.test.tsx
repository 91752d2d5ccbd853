import type { GeminiUsage } from '@lumi/contract';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GeminiUsageChart } from './gemini-usage-chart';

const HOUR_MS = 3_600_000;
const start = Date.parse('2026-11-20T00:00:00.000Z');

/** 24 hours, the third without calls, the last with the most tokens (37,000). */
function usage(): GeminiUsage {
  const time_series = Array.from({ length: 24 }, (_, i) => ({
    timestamp: new Date(start + i * HOUR_MS).toISOString(),
    requests: i === 2 ? 0 : 2,
    tokens: i === 2 ? 0 : 1_000 * (i + 14),
    cost: i === 2 ? 0 : 0.01,
  }));
  return {
    summary: { total_requests: 46, total_tokens: 500_000, total_cost: 0.46, models: {} },
    time_series,
    last_updated: time_series[23]!.timestamp,
  };
}

/** jsdom lays nothing out: the observer reports the width a browser would give the chart's box. */
function layOut(width: number) {
  let report: ResizeObserverCallback = () => {};
  vi.stubGlobal(
    'ResizeObserver',
    class {
      constructor(callback: ResizeObserverCallback) {
        report = callback;
      }
      observe() {}
      disconnect() {}
    },
  );
  return () => act(() => report([{ contentRect: { width } } as ResizeObserverEntry], {} as ResizeObserver));
}

describe('GeminiUsageChart', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('draws a bar for each hour with tokens on a round scale, once its width is known', () => {
    const measured = layOut(600);
    const { container } = render(<GeminiUsageChart usage={usage()} hours={24} />);
    expect(
      screen.getByRole('img', { name: /Gemini tokens per hour over the last 24 hours: 46 requests/ }),
    ).toBeEmptyDOMElement();
    measured();
    const bars = container.querySelectorAll('svg > path[fill]:not([fill="none"])');
    expect(bars).toHaveLength(23);
    const labels = [...container.querySelectorAll('text')].map((text) => text.textContent);
    expect(labels.slice(0, 5)).toEqual(['0', '10K', '20K', '30K', '40K']);
    // 540 px of plot fit 7 hour labels of 72 px: every 4th hour, counted from the newest.
    expect(labels.slice(5)).toHaveLength(6);
  });

  it('shows the hour under the pointer, and nothing once the pointer leaves', () => {
    // jsdom has no PointerEvent: without one the events would carry no position.
    vi.stubGlobal('PointerEvent', MouseEvent);
    const measured = layOut(600);
    const { container } = render(<GeminiUsageChart usage={usage()} hours={24} />);
    measured();
    const svg = container.querySelector('svg')!;
    // The plot starts after the 48 px y axis; each of the 24 hours has 22.5 px.
    fireEvent.pointerMove(svg, { clientX: 48 + 22.5 * 23 + 5 });
    expect(screen.getByText('37,000 tokens')).toBeInTheDocument();
    expect(screen.getByText('2 requests')).toBeInTheDocument();
    fireEvent.pointerMove(svg, { clientX: 48 + 22.5 * 2 + 5 });
    expect(screen.getByText('0 tokens')).toBeInTheDocument();
    fireEvent.pointerLeave(svg);
    expect(screen.queryByText(/tokens$/)).not.toBeInTheDocument();
  });
});
