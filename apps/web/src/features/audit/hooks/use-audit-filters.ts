import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';

/** The audit log filters as they sit in the URL; dates are calendar days (YYYY-MM-DD). */
export interface AuditFilters {
  action: string;
  resource_type: string;
  user: string;
  from: string;
  to: string;
}

export const FILTER_NAMES = ['action', 'resource_type', 'user', 'from', 'to'] as const;

export function useAuditFilters() {
  const [params, setParams] = useSearchParams();
  const filters = useMemo<AuditFilters>(
    () => ({
      action: params.get('action') ?? '',
      resource_type: params.get('resource_type') ?? '',
      user: params.get('user') ?? '',
      from: params.get('from') ?? '',
      to: params.get('to') ?? '',
    }),
    [params],
  );

  const setFilters = useCallback(
    (next: AuditFilters) =>
      setParams((previous) => {
        const updated = new URLSearchParams(previous);
        for (const name of FILTER_NAMES) {
          const value = next[name].trim();
          if (value) updated.set(name, value);
          else updated.delete(name);
        }
        return updated;
      }),
    [setParams],
  );

  return { filters, setFilters };
}
