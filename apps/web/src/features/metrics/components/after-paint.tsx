import { startTransition, useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { useAfterPaint } from '@/lib/use-after-paint';

/** How far outside the window a chart's place may be and still be drawn: it is drawn before it scrolls in. */
const NEAR_MARGIN = '300px 0px';

/**
 * Renders its children once the browser has painted what is already there, and once their place is within
 * NEAR_MARGIN of the window, in a transition. Drawing a chart (recharts) is the heaviest render on these
 * screens: this way the panel's figures are shown first, a chart below the fold on a phone is drawn only
 * when it is about to be seen, and React renders each chart in slices it yields between, instead of one long
 * task that blocks the page (docs/benchmarks.md, "The first signed-in load").
 */
export function AfterPaint({ children, fallback }: { children: ReactNode; fallback: ReactNode }) {
  const [painted, setPainted] = useState(false);
  const [near, setNear] = useState(typeof IntersectionObserver === 'undefined');
  const place = useRef<HTMLDivElement>(null);
  useAfterPaint(useCallback(() => startTransition(() => setPainted(true)), []));
  useEffect(() => {
    const element = place.current;
    if (near || !element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        observer.disconnect();
        startTransition(() => setNear(true));
      },
      { rootMargin: NEAR_MARGIN },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [near]);
  return painted && near ? children : <div ref={place}>{fallback}</div>;
}
