import type { ReactNode } from 'react';
import { cn } from '@/lib/cn';
import { chartPaletteClass } from '../lib/chart-palette';

interface ChartFrameProps {
  /** What the chart shows, in words, for screen readers. */
  summary: string;
  /** True when the chart holds controls (change markers' flags), which an image could not contain. */
  interactive: boolean;
  children: ReactNode;
}

/**
 * A chart's box. Without controls the chart is an image named by its summary; with change markers its
 * flags must stay reachable, so the summary is an image of its own beside the drawing (an image's content
 * is hidden from screen readers, and controls may not sit inside one).
 */
export function ChartFrame({ summary, interactive, children }: ChartFrameProps) {
  const className = cn('h-72 w-full', chartPaletteClass);
  if (!interactive) {
    return (
      <div role="img" aria-label={summary} className={className}>
        {children}
      </div>
    );
  }
  return (
    <div className={className}>
      <div role="img" aria-label={summary} className="sr-only" />
      {children}
    </div>
  );
}
