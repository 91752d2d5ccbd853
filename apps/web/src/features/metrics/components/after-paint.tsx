import { startTransition, useCallback, useState, type ReactNode } from 'react';
import { useAfterPaint } from '@/lib/use-after-paint';

/**
 * Renders its children once the browser has painted what is already there, in a transition. Drawing a
 * chart (recharts) is the heaviest render on these screens: this way the panel's figures are shown first,
 * and React renders the chart in slices it yields between, instead of one long task that blocks the page.
 */
export function AfterPaint({ children, fallback }: { children: ReactNode; fallback: ReactNode }) {
  const [painted, setPainted] = useState(false);
  useAfterPaint(useCallback(() => startTransition(() => setPainted(true)), []));
  return painted ? children : fallback;
}
