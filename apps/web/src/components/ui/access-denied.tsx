import { ShieldAlert } from 'lucide-react';
import type { ReactNode } from 'react';

/** The spec's 'Access Denied' state for a screen the user may not see. */
export function AccessDenied({ children }: { children: ReactNode }) {
  return (
    <div role="alert" className="mx-auto mt-10 max-w-lg rounded-lg border bg-card p-6 text-center">
      <ShieldAlert aria-hidden className="mx-auto mb-3 size-10 text-destructive" />
      <h1 className="text-xl font-semibold">Access Denied</h1>
      <p className="mt-2 text-sm text-muted-foreground">{children}</p>
    </div>
  );
}
