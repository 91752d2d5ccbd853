import { useEffect } from 'react';
import { whenContentfulPaint } from './contentful-paint';

/**
 * Runs `start` once the browser has painted the screen's first frame: a timer set from an animation frame
 * runs after that frame is painted, and on the page's first load `start` also waits for that paint to be on
 * screen (lib/contentful-paint.ts). For downloads and calls the screen's first view does not need, which
 * would otherwise share a phone's bandwidth and main thread with it (docs/benchmarks.md, "The first
 * signed-in load"). `start` must be stable (a module-level function or a callback with no dependencies).
 */
export function useAfterPaint(start: () => void): void {
  useEffect(() => {
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => {
        void whenContentfulPaint().then(() => {
          if (!cancelled) start();
        });
      });
    });
    return () => {
      cancelled = true;
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [start]);
}
