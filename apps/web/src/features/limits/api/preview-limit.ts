import type { LimitPreview, LimitValues } from '@lumi/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { LIMITS_PATH, limitKeys } from './limit-keys';

/** POST /limits/preview: who is over, or near (80 %), a limit being written, in its current window. */
export function previewLimit(input: LimitValues, signal?: AbortSignal) {
  return api.post<LimitPreview>(`${LIMITS_PATH}/preview`, input, { signal });
}

/** Asks only for a limit the form has checked; the last answer stays while the next one loads. */
export function useLimitPreview(input: LimitValues | null) {
  return useQuery({
    queryKey: limitKeys.preview(input!),
    queryFn: ({ signal }) => previewLimit(input!, signal),
    enabled: input !== null,
    placeholderData: keepPreviousData,
    retry: false,
  });
}
