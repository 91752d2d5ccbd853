import type { MetricsExportPanel } from '@lumi/contract';
import { downloadFile, type DownloadedFile } from '@/lib/download';
import { resolveTimeRange, type TimeRange } from '../lib/time-range';

/**
 * GET /metrics/export/{panel}.csv?from=&to=: what a panel shows over its range, as a CSV file; without a
 * range, over the server's default (the last 24 hours, the current hour included).
 */
export function downloadPanelExport(
  panel: MetricsExportPanel,
  range: TimeRange | undefined,
  options: { signal?: AbortSignal; onProgress?: (bytes: number) => void } = {},
): Promise<DownloadedFile> {
  return downloadFile(`/metrics/export/${panel}.csv`, {
    query: range ? resolveTimeRange(range, new Date()) : {},
    type: 'text/csv;charset=utf-8',
    fallbackName: `lumi-${panel}.csv`,
    ...options,
  });
}
