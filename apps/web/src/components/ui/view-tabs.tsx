import { Tabs } from 'radix-ui';
import { Suspense, type ComponentType, type ReactNode } from 'react';
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

/** The view of one tab, kept in the page while another tab shows. */
export function ViewTab({ value, children }: { value: string; children: ReactNode }) {
  return (
    <Tabs.Content value={value} className="outline-none">
      {children}
    </Tabs.Content>
  );
}

/**
 * A tab whose view is loaded on demand (`lazy`: a chunk of its own, for views most visits never open), with
 * a placeholder of its size, announced by `label`, while its chunk arrives.
 */
export function LazyViewTab({
  value,
  label,
  view: View,
}: {
  value: string;
  label: string;
  view: ComponentType;
}) {
  return (
    <ViewTab value={value}>
      <Suspense
        fallback={
          <div role="status" aria-label={label}>
            <Skeleton className="h-96 w-full" />
          </div>
        }
      >
        <View />
      </Suspense>
    </ViewTab>
  );
}
