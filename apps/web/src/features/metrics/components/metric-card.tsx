import type { ReactNode } from 'react';
import { useId } from 'react';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { cn } from '@/lib/cn';

interface MetricCardProps {
  title: string;
  /** A badge or control beside the title. */
  aside?: ReactNode;
  /** Buttons acting on what the panel shows (an export, say), at the end of the header. */
  actions?: ReactNode;
  description?: ReactNode;
  className?: string;
  children: ReactNode;
}

/** The frame every metric panel shares: a titled card, named by its title for screen readers. */
export function MetricCard({ title, aside, actions, description, className, children }: MetricCardProps) {
  const titleId = useId();
  return (
    <Card aria-labelledby={titleId} className={cn('flex flex-col', className)}>
      <CardHeader className="flex-row flex-wrap items-center justify-between gap-2">
        <div>
          <CardTitle id={titleId}>{title}</CardTitle>
          {description && <p className="mt-0.5 text-xs text-muted-foreground">{description}</p>}
        </div>
        {aside}
        {actions && <div className="flex flex-wrap items-center gap-2">{actions}</div>}
      </CardHeader>
      <CardContent className="flex-1">{children}</CardContent>
    </Card>
  );
}

/** A label and its value, as the panels list their figures. */
export function Stat({ label, children }: { label: ReactNode; children: ReactNode }) {
  return (
    <div className="flex items-baseline justify-between gap-3 py-1 text-sm">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="text-right font-medium tabular-nums">{children}</dd>
    </div>
  );
}

/** The headline figures of a panel, as tiles: two a row on a phone, all in one row from small screens up. */
export function Totals({ items }: { items: ReadonlyArray<{ label: string; value: ReactNode }> }) {
  return (
    <dl className="grid grid-cols-2 gap-2 sm:grid-cols-[repeat(auto-fit,minmax(8rem,1fr))]">
      {items.map(({ label, value }) => (
        <div key={label} className="min-w-0 rounded-md bg-muted/60 p-2">
          <dt className="text-xs text-muted-foreground">{label}</dt>
          <dd className="text-base font-semibold break-words tabular-nums sm:text-lg">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
