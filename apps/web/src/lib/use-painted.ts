import { startTransition, useCallback, useState } from 'react';
import { useAfterPaint } from './use-after-paint';

/**
 * False until the browser has painted the frame the component first appeared in (and, on the page's first
 * load, its first contentful paint: use-after-paint.ts), then true, set in a transition: a screen renders
 * what its first view needs first and the rest after it, in slices React yields between
 * (docs/benchmarks.md, "The first signed-in load").
 */
export function usePainted(): boolean {
  const [painted, setPainted] = useState(false);
  useAfterPaint(useCallback(() => startTransition(() => setPainted(true)), []));
  return painted;
}
