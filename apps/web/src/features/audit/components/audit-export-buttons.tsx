import type { AuditExportFormat } from '@lumi/contract';
import { ExportButtons, type ExportFormat } from '@/components/ui/export-buttons';
import { downloadAuditExport } from '../api/export-audit-logs';
import type { AuditFilters } from '../hooks/use-audit-filters';

const FORMATS: ExportFormat<AuditExportFormat>[] = [
  { format: 'csv', name: 'CSV' },
  { format: 'jsonl', name: 'JSON Lines' },
];

/**
 * Export CSV and Export JSON Lines: every entry the applied filters match (docs/operators/security.md,
 * "Audit export"), not only the pages shown. While a file downloads, its button says how far it has got and
 * Cancel stops it.
 */
export function AuditExportButtons({ filters }: { filters: AuditFilters }) {
  return (
    <ExportButtons
      formats={FORMATS}
      subject="the audit log"
      download={(format, options) => downloadAuditExport(format, filters, options)}
    />
  );
}
