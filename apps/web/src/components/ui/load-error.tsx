import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/api-client';

/**
 * A list or panel that could not load: what failed, the server's reason (or a hint to check the
 * connection) and a Retry button.
 */
export function LoadError({ title, error, onRetry }: { title: string; error: unknown; onRetry: () => void }) {
  return (
    <Alert variant="error" title={title}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span>{errorMessage(error, 'Check your connection.')}</span>
        <Button variant="secondary" size="sm" onClick={onRetry}>
          Retry
        </Button>
      </div>
    </Alert>
  );
}
