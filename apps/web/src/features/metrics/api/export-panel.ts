import type { MetricsExportPanel } from '@lumi/contract';
import { apiResponse } from '@/lib/api-client';
import { resolveTimeRange, type TimeRange } from '../lib/time-range';

/** A finished download: the name the server gave it and its bytes. */
export interface PanelExportFile {
  name: string;
  blob: Blob;
}

const CSV_TYPE = 'text/csv;charset=utf-8';

/** The name in `Content-Disposition: attachment; filename="…"`, else one of our own. */
function fileNameOf(response: Response, panel: MetricsExportPanel): string {
  const match = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '');
  return match?.[1] ?? `lumi-${panel}.csv`;
}

/**
 * GET /metrics/export/{panel}.csv?from=&to=: what a panel shows over its range, as a CSV file. Fetched
 * through the one API client (the token lives in memory, so a plain link could not download it) and read
 * as it arrives, `onProgress` hearing the bytes so far. A download the server breaks off part way
 * rejects, so a short file is never offered as the whole.
 */
export async function downloadPanelExport(
  panel: MetricsExportPanel,
  range: TimeRange,
  { signal, onProgress }: { signal?: AbortSignal; onProgress?: (bytes: number) => void } = {},
): Promise<PanelExportFile> {
  const response = await apiResponse('GET', `/metrics/export/${panel}.csv`, {
    query: resolveTimeRange(range, new Date()),
    headers: { accept: CSV_TYPE },
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
  return { name: fileNameOf(response, panel), blob: new Blob(parts, { type: CSV_TYPE }) };
}
