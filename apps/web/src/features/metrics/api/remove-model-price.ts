import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { metricsKeys } from './metrics-keys';

/** DELETE /config/model-prices/{model}: the catalogue prices the model's calls again from now on. */
export function removeModelPrice(model: string) {
  return api.delete<{ ok: true }>(`/config/model-prices/${encodeURIComponent(model)}`);
}

export function useRemoveModelPrice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeModelPrice,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: metricsKeys.modelPrices }),
  });
}
