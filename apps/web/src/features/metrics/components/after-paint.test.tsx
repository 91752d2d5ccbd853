import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AfterPaint, NearOnPhone } from './after-paint';

/**
 * An IntersectionObserver the test moves: `show()` tells every observer its element came near, once one
 * observes an element. A render in a transition commits before its effects run, so a place can be in the
 * document before anything watches it.
 */
function fakeObserver() {
  const observers: { callback: IntersectionObserverCallback; observed: Element[]; live: boolean }[] = [];
  class FakeIntersectionObserver {
    private readonly entry;
    constructor(callback: IntersectionObserverCallback) {
      this.entry = { callback, observed: [] as Element[], live: true };
      observers.push(this.entry);
    }
    observe(element: Element) {
      this.entry.observed.push(element);
    }
    disconnect() {
      this.entry.live = false;
    }
  }
  vi.stubGlobal('IntersectionObserver', FakeIntersectionObserver);
  return {
    async show() {
      await vi.waitFor(() =>
        expect(observers.some(({ observed, live }) => live && observed.length > 0)).toBe(true),
      );
      for (const { callback, observed, live } of observers) {
        if (!live) continue;
        const entries = observed.map(
          (target) => ({ target, isIntersecting: true }) as IntersectionObserverEntry,
        );
        act(() => callback(entries, {} as IntersectionObserver));
      }
    },
  };
}

/** A chart behind AfterPaint, with "Chart loading" as its fallback. */
function renderChart() {
  render(
    <AfterPaint fallback={<p>Chart loading</p>}>
      <p>The chart</p>
    </AfterPaint>,
  );
}

/** A window as wide as a phone's (`phone`) or a desktop's, as far as matchMedia tells. */
function stubWidth(phone: boolean) {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: phone && query.includes('max-width'),
    media: query,
  }));
}

function renderPanels() {
  render(
    <NearOnPhone label="Panels, shown when they are scrolled into view" fallback={<p>Panels loading</p>}>
      <p>The panels</p>
    </NearOnPhone>,
  );
}

const pressTab = () =>
  act(() => {
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Tab' }));
  });

// Each test starts as a pointer user's page: a Tab is remembered until the pointer is used.
beforeEach(() => {
  document.dispatchEvent(new Event('pointerdown'));
});

describe('NearOnPhone', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('renders the panels at once on a wider screen', () => {
    fakeObserver();
    stubWidth(false);
    renderPanels();
    expect(screen.getByText('The panels')).toBeInTheDocument();
  });

  it('renders the panels on a phone only once their place comes near the window', async () => {
    const observer = fakeObserver();
    stubWidth(true);
    renderPanels();
    expect(
      screen.getByRole('img', { name: 'Panels, shown when they are scrolled into view' }),
    ).toBeInTheDocument();
    expect(screen.queryByText('The panels')).not.toBeInTheDocument();
    await observer.show();
    expect(await screen.findByText('The panels')).toBeInTheDocument();
  });

  it('renders the panels on a phone before the page is printed', () => {
    fakeObserver();
    stubWidth(true);
    renderPanels();
    expect(screen.queryByText('The panels')).not.toBeInTheDocument();
    window.dispatchEvent(new Event('beforeprint'));
    // At once: a render in a transition would come after the page is laid out for paper.
    expect(screen.getByText('The panels')).toBeInTheDocument();
  });
});

describe('AfterPaint', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('draws a chart below the fold only once its place comes near the window', async () => {
    const observer = fakeObserver();
    renderChart();
    // Painted, but far from the window: still the fallback.
    expect(
      await screen.findByRole('img', { name: 'Chart, drawn when it is scrolled into view' }),
    ).toBeInTheDocument();
    expect(screen.getByText('Chart loading')).toBeInTheDocument();
    expect(screen.queryByText('The chart')).not.toBeInTheDocument();
    await observer.show();
    expect(await screen.findByText('The chart')).toBeInTheDocument();
  });

  it('draws every chart on a keyboard user’s first Tab, and says meanwhile that it waits to be scrolled to', async () => {
    fakeObserver();
    renderChart();
    expect(
      await screen.findByRole('img', { name: 'Chart, drawn when it is scrolled into view' }),
    ).toBeInTheDocument();
    pressTab();
    expect(await screen.findByText('The chart')).toBeInTheDocument();
  });

  it('draws a chart whose place appears after the first Tab without waiting to be scrolled to', async () => {
    fakeObserver();
    pressTab();
    renderChart();
    expect(await screen.findByText('The chart')).toBeInTheDocument();
    expect(
      screen.queryByRole('img', { name: 'Chart, drawn when it is scrolled into view' }),
    ).not.toBeInTheDocument();
  });

  it('makes a chart wait to be scrolled to again once the pointer is used after a Tab', async () => {
    const observer = fakeObserver();
    pressTab();
    document.dispatchEvent(new Event('pointerdown'));
    renderChart();
    expect(
      await screen.findByRole('img', { name: 'Chart, drawn when it is scrolled into view' }),
    ).toBeInTheDocument();
    expect(screen.queryByText('The chart')).not.toBeInTheDocument();
    await observer.show();
    expect(await screen.findByText('The chart')).toBeInTheDocument();
  });

  it('draws at once after the paint where there is no IntersectionObserver', async () => {
    vi.stubGlobal('IntersectionObserver', undefined);
    renderChart();
    expect(await screen.findByText('The chart')).toBeInTheDocument();
  });
});
