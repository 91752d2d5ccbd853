import type { MetricsExportPanel } from '@lumi/contract';
import { ExportButtons, type ExportFormat } from '@/components/ui/export-buttons';
import { downloadPanelExport } from '../api/export-panel';
import type { TimeRange } from '../lib/time-range';

/** What each panel's file holds, in the messages about it. */
const PANEL_NAMES: Record<MetricsExportPanel, string> = {
  usage: 'LLM usage',
  'top-chats': 'top chats',
  'top-users': 'top users',
  integrations: 'integrations',
};

const CSV: ExportFormat<'csv'>[] = [{ format: 'csv', name: 'CSV' }];

export interface PanelExportButtonProps {
  /** Which panel's rows: usage (by day, provider, model and feature), top-chats, top-users, integrations. */
  panel: MetricsExportPanel;
  /**
   * The range the panel shows; a relative range is resolved when the button is pressed. Without one, the
   * server's default: the last 24 hours, the current hour included, as the integrations panel shows.
   */
  range?: TimeRange;
}

/**
 * Export CSV (docs/operators/metrics.md, "CSV exports"): the rows a panel shows over its range, as a file.
 * While it downloads, the button says how far it has got and Cancel stops it; a failure says why.
 */
export function PanelExportButton({ panel, range }: PanelExportButtonProps) {
  return (
    <ExportButtons
      formats={CSV}
      subject={PANEL_NAMES[panel]}
      nameSubject
      download={(_format, options) => downloadPanelExport(panel, range, options)}
    />
  );
}
