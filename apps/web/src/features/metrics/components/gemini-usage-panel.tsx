import { GEMINI_WINDOWS, type GeminiUsage } from '@lumi/contract';
import { ResponsiveTable, type ResponsiveColumn } from '@/components/ui/responsive-table';
import { cn } from '@/lib/cn';
import { formatCurrency, formatDateTime } from '@/lib/format';
import { geminiErrorMessage, useGeminiUsage } from '../api/get-gemini-usage';
import { chartPaletteClass, seriesColor, seriesSlots } from '../lib/chart-palette';
import { formatCount, formatPercent } from '../lib/format-metrics';
import {
  GEMINI_WINDOW_TEXT,
  geminiModelRows,
  tokenShares,
  type GeminiModelRow,
  type GeminiWindow,
} from '../lib/gemini-series';
import { GeminiUsageChart } from './gemini-usage-chart';
import { MetricCard, Totals } from './metric-card';
import { PanelEmpty, PanelError, PanelSkeleton } from './panel-states';
import { WindowPicker } from './window-picker';

const TITLE = 'Gemini Usage';

const GEMINI_WINDOW_OPTIONS = GEMINI_WINDOWS.map((hours) => ({
  value: hours,
  label: GEMINI_WINDOW_TEXT[hours].button,
}));

/** The models of the window: a bar of their token shares in the chart colours, and a table in words. */
function GeminiModels({ usage }: { usage: GeminiUsage }) {
  const rows = geminiModelRows(usage);
  const percents = tokenShares(rows);
  const shares = new Map(rows.map((row, index) => [row.model, percents[index] ?? 0]));
  const slots = seriesSlots(rows.map((row) => row.model));
  const colorOf = (model: string) => seriesColor(slots.get(model) ?? 0);
  const shareOf = (model: string) => shares.get(model) ?? 0;
  const summary = rows.map((row) => `${row.label} (${row.model}) ${formatPercent(shareOf(row.model))}`);
  const columns: ReadonlyArray<ResponsiveColumn<GeminiModelRow>> = [
    {
      header: 'Model',
      primary: true,
      cell: (row) => (
        <div className="flex items-center gap-2">
          <span
            aria-hidden
            className="size-2.5 shrink-0 rounded-full"
            style={{ background: colorOf(row.model) }}
          />
          <div className="min-w-0">
            <p className="font-medium">{row.label}</p>
            <p className="font-mono text-xs break-words text-muted-foreground">{row.model}</p>
          </div>
        </div>
      ),
    },
    { header: 'Requests', numeric: true, cell: (row) => formatCount(row.requests) },
    { header: 'Tokens', numeric: true, cell: (row) => formatCount(row.tokens) },
    { header: 'Share', numeric: true, cell: (row) => formatPercent(shareOf(row.model)) },
    { header: 'Cost', numeric: true, cell: (row) => formatCurrency(row.cost) },
  ];
  return (
    <div className={cn('space-y-3', chartPaletteClass)}>
      <div>
        <p className="mb-1.5 text-xs text-muted-foreground">Tokens by model</p>
        <div
          role="img"
          aria-label={`Tokens by model: ${summary.join(', ')}`}
          className="flex h-2.5 w-full gap-px overflow-hidden rounded-full bg-muted"
        >
          {rows.map((row) => (
            <div
              key={row.model}
              style={{ width: `${shareOf(row.model)}%`, background: colorOf(row.model) }}
            />
          ))}
        </div>
      </div>
      <ResponsiveTable aria-label="Gemini models" columns={columns} rows={rows} rowKey={(row) => row.model} />
    </div>
  );
}

interface GeminiUsagePanelProps {
  hours: GeminiWindow;
  onHoursChange: (hours: GeminiWindow) => void;
}

/** The Gemini usage panel (spec section 2, Metrics & Analytics): 24, 48 or 168 hours. */
export function GeminiUsagePanel({ hours, onHoursChange }: GeminiUsagePanelProps) {
  const usage = useGeminiUsage(hours);
  const data = usage.data;
  const empty = data ? data.summary.total_requests === 0 : false;
  return (
    <MetricCard
      title={TITLE}
      description={`Last ${GEMINI_WINDOW_TEXT[hours].span}`}
      aside={
        <WindowPicker
          label="Time window"
          value={hours}
          options={GEMINI_WINDOW_OPTIONS}
          onChange={onHoursChange}
        />
      }
    >
      {usage.isPending && <PanelSkeleton label={TITLE} rows={4} chart />}
      {usage.isError && !data && (
        <PanelError message={geminiErrorMessage(usage.error)} onRetry={() => void usage.refetch()} />
      )}
      {data && empty && (
        <PanelEmpty>No Gemini calls were reported in the last {GEMINI_WINDOW_TEXT[hours].span}.</PanelEmpty>
      )}
      {data && !empty && (
        <div className="space-y-4">
          <Totals
            items={[
              { label: 'Requests', value: formatCount(data.summary.total_requests) },
              { label: 'Tokens', value: formatCount(data.summary.total_tokens) },
              { label: 'Cost', value: formatCurrency(data.summary.total_cost) },
              { label: 'Last call', value: formatDateTime(data.last_updated, 'None') },
            ]}
          />
          <GeminiUsageChart usage={data} hours={hours} />
          <GeminiModels usage={data} />
        </div>
      )}
    </MetricCard>
  );
}
