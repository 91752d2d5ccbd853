import { startTransition, useEffect, useState, type ReactNode } from 'react';

/**
 * Renders its children once the browser has painted what is already there, in a transition. Drawing a
 * chart (recharts) is the heaviest render on these screens: this way the panel's figures are shown first,
 * and React renders the chart in slices it yields between, instead of one long task that blocks the page.
 */
export function AfterPaint({ children, fallback }: { children: ReactNode; fallback: ReactNode }) {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    // A timer set from an animation frame runs after that frame has been painted.
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => startTransition(() => setPainted(true)));
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, []);
  return painted ? children : fallback;
}
