import type { Delivery } from '@lumi/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { MESSAGING_PATH } from '@/lib/messaging-keys';
import { deliveryKeys } from './delivery-keys';

/** POST /v1/messaging/deliveries/{id}/cancel: only a queued delivery; 409 with the reason otherwise. */
export function cancelDelivery(id: number) {
  return api.post<Delivery>(`${MESSAGING_PATH}/deliveries/${id}/cancel`);
}

export function useCancelDelivery() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelDelivery,
    // A 409 means the delivery moved on meanwhile: show where it is now, too.
    onSettled: () => void queryClient.invalidateQueries({ queryKey: deliveryKeys.all }),
  });
}
