import type { DeliveryDetail } from '@lumi/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { MESSAGING_PATH } from '@/lib/messaging-keys';
import { isSettled } from '../lib/delivery-status';
import { DELIVERIES_POLL_MS, deliveryKeys } from './delivery-keys';

/** GET /v1/messaging/deliveries/{id}: the delivery with the data it was rendered with and every attempt. */
export function fetchDelivery(id: number, signal?: AbortSignal) {
  return api.get<DeliveryDetail>(`${MESSAGING_PATH}/deliveries/${id}`, { signal });
}

export function deliveryQueryOptions(id: number) {
  return queryOptions({
    queryKey: deliveryKeys.detail(id),
    queryFn: ({ signal }) => fetchDelivery(id, signal),
    // Follow a delivery on its way out; once it has settled nothing changes without an operator.
    refetchInterval: (query) =>
      query.state.data && isSettled(query.state.data) ? false : DELIVERIES_POLL_MS,
  });
}

export function useDelivery(id: number) {
  return useQuery(deliveryQueryOptions(id));
}
