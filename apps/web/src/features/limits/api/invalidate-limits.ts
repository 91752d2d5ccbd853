import { useQueryClient } from '@tanstack/react-query';
import { limitKeys } from './limit-keys';

/** Any change can move the list, the denials and a subject's standing: all are asked again. */
export function useInvalidateLimits() {
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ queryKey: limitKeys.all });
}
