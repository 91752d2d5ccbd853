import type { AuditExportFormat, AuditLog } from '@lumi/contract';
import { CSV_BYTE_ORDER_MARK, csvRecord } from '../../lib/csv.js';

/**
 * The audit log as a download: the list's entries, newest first, in CSV (one column per field of an entry,
 * old and new values as JSON text) or JSON Lines (https://jsonlines.org: one entry as the list answers it
 * per line).
 */

const CSV_COLUMNS = [
  'id',
  'timestamp',
  'user',
  'action',
  'resource_type',
  'resource_id',
  'resource_name',
  'resource_current_name',
  'ip_address',
  'user_agent',
  'old_value',
  'new_value',
] as const satisfies readonly (keyof AuditLog)[];

const jsonText = (value: unknown) => (value === null ? null : JSON.stringify(value));

function csvLines(entries: AuditLog[]): string {
  return entries
    .map((entry) =>
      csvRecord(
        CSV_COLUMNS.map((column) =>
          column === 'old_value' || column === 'new_value' ? jsonText(entry[column]) : entry[column],
        ),
      ),
    )
    .join('');
}

function jsonLines(entries: AuditLog[]): string {
  return entries.map((entry) => `${JSON.stringify(entry)}\n`).join('');
}

export const EXPORT_FORMATS: Record<
  AuditExportFormat,
  { contentType: string; extension: string; head: string; lines: (entries: AuditLog[]) => string }
> = {
  csv: {
    contentType: 'text/csv; charset=utf-8',
    extension: 'csv',
    head: CSV_BYTE_ORDER_MARK + csvRecord(CSV_COLUMNS),
    lines: csvLines,
  },
  jsonl: { contentType: 'application/x-ndjson', extension: 'jsonl', head: '', lines: jsonLines },
};

/** lumi-audit-20261125T014500Z.csv: when it was made, in UTC, and safe in every file system. */
export function exportFileName(at: Date, format: AuditExportFormat): string {
  const stamp = at
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replaceAll(/[-:]/g, '');
  return `lumi-audit-${stamp}.${EXPORT_FORMATS[format].extension}`;
}
