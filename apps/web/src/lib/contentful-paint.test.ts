import { afterEach, describe, expect, it, vi } from 'vitest';
import { whenContentfulPaint } from './contentful-paint';

/** A browser with Paint Timing whose first contentful paint has not been recorded yet. */
function paintTiming() {
  const observers: Array<(entries: { getEntriesByName: (name: string) => unknown[] }) => void> = [];
  class FakeObserver {
    static supportedEntryTypes = ['paint'];
    constructor(callback: (typeof observers)[number]) {
      observers.push(callback);
    }
    observe() {}
    disconnect() {}
  }
  vi.stubGlobal('PerformanceObserver', FakeObserver);
  vi.spyOn(performance, 'getEntriesByName').mockReturnValue([]);
  const paint = (name: string) =>
    observers.forEach((notify) => notify({ getEntriesByName: (n) => (n === name ? [{}] : []) }));
  return { paint };
}

describe('whenContentfulPaint', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('resolves at once where the browser has no Paint Timing', async () => {
    vi.stubGlobal('PerformanceObserver', undefined);
    await expect(whenContentfulPaint()).resolves.toBeUndefined();
  });

  it('waits for the first contentful paint, not another paint', async () => {
    vi.useFakeTimers();
    const { paint } = paintTiming();
    let resolved = false;
    void whenContentfulPaint(1_000).then(() => (resolved = true));
    paint('first-paint');
    await vi.advanceTimersByTimeAsync(10);
    expect(resolved).toBe(false);
    paint('first-contentful-paint');
    await vi.advanceTimersByTimeAsync(0);
    expect(resolved).toBe(true);
  });

  it('gives up waiting after the fallback', async () => {
    vi.useFakeTimers();
    paintTiming();
    let resolved = false;
    void whenContentfulPaint(100).then(() => (resolved = true));
    await vi.advanceTimersByTimeAsync(99);
    expect(resolved).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(resolved).toBe(true);
  });
});
