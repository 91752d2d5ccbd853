import type { AuditExportFormat } from '@lumi/contract';
import { apiResponse } from '@/lib/api-client';
import type { AuditFilters } from '../hooks/use-audit-filters';
import { auditFilterQuery } from './list-audit-logs';

/** A finished download: the name the server gave it and its bytes. */
export interface AuditExportFile {
  name: string;
  blob: Blob;
}

const CONTENT_TYPES: Record<AuditExportFormat, string> = {
  csv: 'text/csv;charset=utf-8',
  jsonl: 'application/x-ndjson',
};

/** The name in `Content-Disposition: attachment; filename="…"`, else one of our own. */
function fileNameOf(response: Response, format: AuditExportFormat): string {
  const match = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '');
  return match?.[1] ?? `lumi-audit.${format}`;
}

/**
 * GET /admin/audit-logs/export: every entry the filters match, as a file. The access token lives in
 * memory, not in a cookie, so a plain link cannot download it: the file is fetched with the token (once
 * more after a refresh, as every call is) and read as it arrives, `onProgress` hearing the bytes so far.
 * A download the server breaks off part way rejects, so a short file is never offered as the whole.
 */
export async function downloadAuditExport(
  format: AuditExportFormat,
  filters: AuditFilters,
  { signal, onProgress }: { signal?: AbortSignal; onProgress?: (bytes: number) => void } = {},
): Promise<AuditExportFile> {
  const response = await apiResponse('GET', '/admin/audit-logs/export', {
    query: { format, ...auditFilterQuery(filters) },
    headers: { accept: CONTENT_TYPES[format] },
    signal,
  });

  const parts: Uint8Array<ArrayBuffer>[] = [];
  let received = 0;
  if (response.body) {
    const reader = response.body.getReader();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      parts.push(chunk.value);
      received += chunk.value.byteLength;
      onProgress?.(received);
    }
  }
  return { name: fileNameOf(response, format), blob: new Blob(parts, { type: CONTENT_TYPES[format] }) };
}
