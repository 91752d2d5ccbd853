import type { ModelPrice, ModelPriceInput } from '@lumi/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { metricsKeys } from './metrics-keys';

/** PUT /config/model-prices/{model}: creates or replaces the model's price. */
export function setModelPrice({ model, input }: { model: string; input: ModelPriceInput }) {
  return api.put<ModelPrice>(`/config/model-prices/${encodeURIComponent(model)}`, input);
}

export function useSetModelPrice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setModelPrice,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: metricsKeys.modelPrices }),
  });
}
