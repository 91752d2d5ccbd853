import type { ReactNode } from 'react';

/** What a list shows when it has nothing: a dashed box the size of a few rows, with why and what to do. */
export function EmptyState({ children }: { children: ReactNode }) {
  return (
    <p className="rounded-md border border-dashed py-10 text-center text-sm text-muted-foreground">
      {children}
    </p>
  );
}
