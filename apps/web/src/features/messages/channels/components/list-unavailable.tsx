import { Alert } from '@/components/ui/alert';
import { Skeleton } from '@/components/ui/skeleton';
import { cn } from '@/lib/cn';

interface ListUnavailableProps {
  query: { isPending: boolean };
  /** What the list holds, for the failure: "channels". */
  items: string;
  /** The placeholder's height, about that of the first rows. */
  placeholderClassName: string;
}

/** A list of the channels dialog that has no rows to show yet: a placeholder while it loads, or its failure. */
export function ListUnavailable({ query, items, placeholderClassName }: ListUnavailableProps) {
  return query.isPending ? (
    <Skeleton className={cn(placeholderClassName, 'w-full')} />
  ) : (
    <Alert variant="error">{`Failed to load ${items}`}</Alert>
  );
}
