import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import { DEFAULT_LLM_USAGE_DAYS, LLM_USAGE_RANGES, type LlmUsageDays } from '../api/get-llm-usage';

/** The range named in the URL (7, 30 or 90 days), or a week for anything else. */
export function parseLlmUsageDays(value: string | null): LlmUsageDays {
  return LLM_USAGE_RANGES.find((days) => String(days) === value) ?? DEFAULT_LLM_USAGE_DAYS;
}

/** The LLM usage range, kept in the URL (`days`) so a reload or a shared link keeps it. */
export function useLlmUsageDays() {
  const [params, setParams] = useSearchParams();
  const days = parseLlmUsageDays(params.get('days'));
  const setDays = useCallback(
    (next: LlmUsageDays) =>
      setParams((previous) => {
        const updated = new URLSearchParams(previous);
        if (next === DEFAULT_LLM_USAGE_DAYS) updated.delete('days');
        else updated.set('days', String(next));
        return updated;
      }),
    [setParams],
  );
  return { days, setDays };
}
