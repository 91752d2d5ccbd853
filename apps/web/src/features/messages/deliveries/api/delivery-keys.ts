import type { DeliveryFilters } from '../hooks/use-delivery-filters';

/** Query keys of the delivery log; `all` invalidates the list and every detail after a send or a change. */
export const deliveryKeys = {
  all: ['messaging', 'deliveries'] as const,
  list: (filters: DeliveryFilters) => ['messaging', 'deliveries', 'list', filters] as const,
  detail: (id: number) => ['messaging', 'deliveries', 'detail', id] as const,
};

/**
 * The log moves while the sender works: the open view asks again this often. TanStack Query stops while
 * the browser tab is hidden (refetchIntervalInBackground is off), so a tab left open costs nothing.
 */
export const DELIVERIES_POLL_MS = 5_000;
