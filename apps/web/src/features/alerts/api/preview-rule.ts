import type { AlertCondition, AlertEvaluation } from '@lumi/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { ALERTS_PATH, alertKeys } from './alert-keys';

/** POST /alerts/rules/preview: what a condition would evaluate to now. */
export function previewCondition(condition: AlertCondition, signal?: AbortSignal) {
  return api.post<AlertEvaluation>(`${ALERTS_PATH}/rules/preview`, { condition }, { signal });
}

/** Asks only for a condition the form has checked; the last answer stays while the next one loads. */
export function useConditionPreview(condition: AlertCondition | null) {
  return useQuery({
    queryKey: alertKeys.preview(condition),
    queryFn: ({ signal }) => previewCondition(condition!, signal),
    enabled: condition !== null,
    placeholderData: keepPreviousData,
    retry: false,
  });
}
