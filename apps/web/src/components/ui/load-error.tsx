import type { ReactNode } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/api-client';

/** An error banner that ends with a Retry button: what failed, and the way to try again. */
export function RetryAlert({
  title,
  children,
  onRetry,
}: {
  title?: string;
  children: ReactNode;
  onRetry: () => void;
}) {
  return (
    <Alert variant="error" title={title}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span>{children}</span>
        <Button variant="secondary" size="sm" onClick={onRetry}>
          Retry
        </Button>
      </div>
    </Alert>
  );
}

/**
 * A list or panel whose query could not load: what failed, the server's reason (or a hint to check the
 * connection) and a Retry button that asks again.
 */
export function LoadError({
  title,
  query,
}: {
  title: string;
  query: { error: unknown; refetch: () => Promise<unknown> };
}) {
  return (
    <RetryAlert title={title} onRetry={() => void query.refetch()}>
      {errorMessage(query.error, 'Check your connection.')}
    </RetryAlert>
  );
}
