import { AUDIT_LIMIT_DEFAULT, type AuditListResponse } from '@lumi/contract';
import { api } from '@/lib/api-client';
import { useCursorPages } from '@/lib/use-cursor-pages';
import type { AuditFilters } from '../hooks/use-audit-filters';

export const auditKeys = {
  list: (filters: AuditFilters) => ['audit-logs', 'list', filters] as const,
};

/** A calendar day from a date input, as the ISO instant where that day starts or ends locally. */
function dayBoundary(day: string, edge: 'start' | 'end'): string | undefined {
  if (!day) return undefined;
  const date = new Date(`${day}T${edge === 'start' ? '00:00:00.000' : '23:59:59.999'}`);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** The filters as the API takes them, for the list and the export alike. */
export function auditFilterQuery(filters: AuditFilters) {
  return {
    action: filters.action,
    resource_type: filters.resource_type,
    user: filters.user,
    from: dayBoundary(filters.from, 'start'),
    to: dayBoundary(filters.to, 'end'),
  };
}

/** GET /admin/audit-logs: newest first, 50 at a time (spec section 9), older pages through the cursor. */
export function fetchAuditLogs(filters: AuditFilters, cursor: number | undefined, signal?: AbortSignal) {
  return api.get<AuditListResponse>('/admin/audit-logs', {
    query: { limit: AUDIT_LIMIT_DEFAULT, cursor, ...auditFilterQuery(filters) },
    signal,
  });
}

export function useAuditLogs(filters: AuditFilters) {
  return useCursorPages({
    queryKey: auditKeys.list(filters),
    fetchPage: (cursor, signal) => fetchAuditLogs(filters, cursor, signal),
  });
}
