const FCP = 'first-contentful-paint';

/**
 * Resolves once the page's first contentful paint is on screen (Paint Timing's `first-contentful-paint`
 * entry, which the browser records when the frame is presented, a little after the main thread painted
 * it): at once when it already is, or when the browser has no Paint Timing; after `fallbackMs` at most.
 */
export function whenContentfulPaint(fallbackMs = 100): Promise<void> {
  if (
    typeof PerformanceObserver === 'undefined' ||
    !PerformanceObserver.supportedEntryTypes?.includes('paint') ||
    performance.getEntriesByName(FCP).length > 0
  ) {
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    const observer = new PerformanceObserver((entries) => {
      if (entries.getEntriesByName(FCP).length > 0) done();
    });
    const timer = setTimeout(done, fallbackMs);
    function done() {
      clearTimeout(timer);
      observer.disconnect();
      resolve();
    }
    observer.observe({ type: 'paint', buffered: true });
  });
}
