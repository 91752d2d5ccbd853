import type { ComponentProps } from 'react';
import { cn } from '@/lib/cn';

export function Skeleton({ className, ...props }: ComponentProps<'div'>) {
  return <div aria-hidden className={cn('animate-pulse rounded-md bg-muted', className)} {...props} />;
}

/** A list while it loads: `rows` placeholders of the height `rowClassName` gives, announced by `label`. */
export function SkeletonList({
  label,
  rows,
  rowClassName,
}: {
  label: string;
  rows: number;
  rowClassName: string;
}) {
  return (
    <div role="status" aria-label={label} className="space-y-2">
      {Array.from({ length: rows }, (_, index) => (
        <Skeleton key={index} className={cn(rowClassName, 'w-full')} />
      ))}
    </div>
  );
}
