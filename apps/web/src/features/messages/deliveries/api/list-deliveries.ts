import { DELIVERY_LIMITS, type DeliveryListResponse } from '@lumi/contract';
import { api } from '@/lib/api-client';
import { MESSAGING_PATH } from '@/lib/messaging-keys';
import { useCursorPages } from '@/lib/use-cursor-pages';
import type { DeliveryFilters } from '../hooks/use-delivery-filters';
import { rangeStart } from '../lib/delivery-ranges';
import { DELIVERIES_POLL_MS, deliveryKeys } from './delivery-keys';

/**
 * GET /v1/messaging/deliveries: newest first, older pages through the cursor. A time range counts back
 * from the moment of each request, so a refresh keeps showing "the last hour".
 */
export function fetchDeliveries(filters: DeliveryFilters, cursor: number | undefined, signal?: AbortSignal) {
  return api.get<DeliveryListResponse>(`${MESSAGING_PATH}/deliveries`, {
    query: {
      limit: DELIVERY_LIMITS.listDefault,
      cursor,
      status: filters.status,
      channel_id: filters.channelId,
      template_id: filters.templateId,
      from: rangeStart(filters.range, Date.now()),
    },
    signal,
  });
}

export function useDeliveries(filters: DeliveryFilters) {
  return useCursorPages({
    queryKey: deliveryKeys.list(filters),
    fetchPage: (cursor, signal) => fetchDeliveries(filters, cursor, signal),
    refetchInterval: DELIVERIES_POLL_MS,
  });
}
