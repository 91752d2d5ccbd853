import type { Delivery, DeliveryRequest } from '@lumi/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { MESSAGING_PATH } from '@/lib/messaging-keys';
import { deliveryKeys } from './delivery-keys';

/**
 * POST /v1/messaging/deliveries: 202 with the queued delivery, 200 with the first one for a repeated
 * idempotency key, 422 with the reason when the template does not render or Telegram would refuse it.
 */
export function createDelivery(request: DeliveryRequest) {
  return api.post<Delivery>(`${MESSAGING_PATH}/deliveries`, request);
}

export function useCreateDelivery() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createDelivery,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: deliveryKeys.all }),
  });
}
