import { ListFilter } from 'lucide-react';
import { Link } from 'react-router';
import { callsLink, type CallFilters } from '../lib/call-filters';
import type { TimeRange } from '../lib/time-range';

/**
 * A figure's drill-down (docs/operators/console-guide.md, "Calls"): the Calls tab with the filters that make
 * up the figure, over the panel's range.
 */
export function CallsLink({
  filters,
  range,
  name,
}: {
  filters: CallFilters;
  range: TimeRange;
  name: string;
}) {
  return (
    <Link
      to={callsLink(filters, range)}
      aria-label={`Calls of ${name}`}
      className="inline-flex items-center gap-1 rounded-sm text-xs font-medium whitespace-nowrap text-primary underline-offset-2 hover:underline focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
    >
      <ListFilter aria-hidden className="size-3.5" />
      Calls
    </Link>
  );
}
