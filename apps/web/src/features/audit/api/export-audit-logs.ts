import type { AuditExportFormat } from '@lumi/contract';
import { downloadFile, type DownloadedFile } from '@/lib/download';
import type { AuditFilters } from '../hooks/use-audit-filters';
import { auditFilterQuery } from './list-audit-logs';

const CONTENT_TYPES: Record<AuditExportFormat, string> = {
  csv: 'text/csv;charset=utf-8',
  jsonl: 'application/x-ndjson',
};

/** GET /admin/audit-logs/export: every entry the filters match (not only the pages shown), as a file. */
export function downloadAuditExport(
  format: AuditExportFormat,
  filters: AuditFilters,
  options: { signal?: AbortSignal; onProgress?: (bytes: number) => void } = {},
): Promise<DownloadedFile> {
  return downloadFile('/admin/audit-logs/export', {
    query: { format, ...auditFilterQuery(filters) },
    type: CONTENT_TYPES[format],
    fallbackName: `lumi-audit.${format}`,
    ...options,
  });
}
