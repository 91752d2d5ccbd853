import { Tabs } from 'radix-ui';
import { Suspense, type ReactNode } from 'react';
import { Skeleton } from '@/components/ui/skeleton';
import { cn } from '@/lib/cn';

const triggerClass = cn(
  '-mb-px border-b-2 border-transparent px-3 py-2 text-sm font-medium whitespace-nowrap text-muted-foreground',
  'hover:text-foreground data-[state=active]:border-primary data-[state=active]:text-foreground',
  'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring',
);

/**
 * The row of tabs over a screen's views (Messages, Alerts, Administration), inside a Radix `Tabs.Root`:
 * underlined, and scrolling sideways on a narrow screen rather than wrapping.
 */
export function ViewTabList({
  label,
  views,
}: {
  label: string;
  views: ReadonlyArray<{ value: string; label: string }>;
}) {
  return (
    <Tabs.List aria-label={label} className="mb-4 flex overflow-x-auto border-b">
      {views.map((view) => (
        <Tabs.Trigger key={view.value} value={view.value} className={triggerClass}>
          {view.label}
        </Tabs.Trigger>
      ))}
    </Tabs.List>
  );
}

/** A view loaded on demand, with a placeholder of its size while its chunk arrives. */
export function LazyView({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Suspense
      fallback={
        <div role="status" aria-label={label}>
          <Skeleton className="h-96 w-full" />
        </div>
      }
    >
      {children}
    </Suspense>
  );
}
