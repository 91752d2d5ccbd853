import { useEffect } from 'react';

/**
 * Runs `start` once the browser has painted the screen's first frame: a timer set from an animation frame
 * runs after that frame is painted. For downloads the screen's first view does not need, which would
 * otherwise share a phone's bandwidth and main thread with it (docs/benchmarks.md, "The first signed-in
 * load"). `start` must be stable (a module-level function or a callback with no dependencies).
 */
export function useAfterPaint(start: () => void): void {
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(start);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [start]);
}
