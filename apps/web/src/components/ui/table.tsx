import { useLayoutEffect, useRef, useState, type ComponentProps, type ReactNode } from 'react';
import { cn } from '@/lib/cn';
import { Skeleton } from './skeleton';

/** True while the element's content is wider than the element, i.e. while it scrolls sideways. */
function useScrollsSideways<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  const [scrolls, setScrolls] = useState(false);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const measure = () => setScrolls(element.scrollWidth > element.clientWidth);
    // The observer reports every observed box once it has a size, after the browser's own layout and
    // before the paint (Resize Observer spec, "Processing Model"): measuring here as well would make the
    // browser lay out the page at once for every table on it (docs/benchmarks.md, "The first signed-in load").
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    return () => observer.disconnect();
  }, []);
  return { ref, scrolls };
}

/**
 * The bordered frame around a table. When the table is wider than the frame the frame scrolls, and only
 * then is it a named, focusable region, so keyboard users can scroll it too (WCAG 2.1.1; axe
 * scrollable-region-focusable) without an extra tab stop on tables that fit.
 */
export function TableFrame({
  label,
  className,
  children,
}: {
  label: string | undefined;
  className?: string;
  children: ReactNode;
}) {
  const { ref, scrolls } = useScrollsSideways<HTMLDivElement>();
  return (
    <div
      ref={ref}
      className={cn('w-full overflow-x-auto rounded-lg border bg-card', className)}
      {...(scrolls && { tabIndex: 0, role: 'region', 'aria-label': label })}
    >
      {children}
    </div>
  );
}

/** A table that scrolls sideways on narrow screens instead of breaking the layout. */
export function Table({ className, ...props }: ComponentProps<'table'>) {
  return (
    <TableFrame label={props['aria-label']}>
      <table className={cn('w-full caption-bottom text-sm', className)} {...props} />
    </TableFrame>
  );
}

export function Th({ className, ...props }: ComponentProps<'th'>) {
  return (
    <th
      scope="col"
      className={cn(
        'border-b bg-muted/50 px-3 py-2 text-left text-xs font-semibold tracking-wide text-muted-foreground uppercase',
        className,
      )}
      {...props}
    />
  );
}

export function Td({ className, ...props }: ComponentProps<'td'>) {
  return <td className={cn('border-b px-3 py-2 align-middle', className)} {...props} />;
}

/**
 * The row-action column's heading: named for screen readers only. `relative` keeps the visually hidden
 * label inside the scrolling table on narrow screens.
 */
export function ActionsTh() {
  return (
    <Th className="relative text-right">
      <span className="sr-only">Actions</span>
    </Th>
  );
}

/** Placeholder rows while a table loads, in its own columns; `cellClassName` folds a column as it does. */
export function SkeletonRows({
  rows,
  columns,
  cellClassName,
}: {
  rows: number;
  columns: number;
  cellClassName: (cell: number) => string | undefined;
}) {
  return Array.from({ length: rows }, (_, index) => (
    <tr key={index}>
      {Array.from({ length: columns }, (_, cell) => (
        <Td key={cell} className={cellClassName(cell)}>
          <Skeleton className="h-5 w-full max-w-40" />
        </Td>
      ))}
    </tr>
  ));
}

/** The one row of a table with nothing to show, across all its columns. */
export function EmptyRow({ columns, children }: { columns: number; children: ReactNode }) {
  return (
    <tr>
      <Td colSpan={columns} className="py-10 text-center text-muted-foreground">
        {children}
      </Td>
    </tr>
  );
}
