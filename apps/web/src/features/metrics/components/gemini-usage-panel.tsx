import type { GeminiUsage } from '@lumi/contract';
import { lazy, Suspense } from 'react';
import { Table, Td, Th } from '@/components/ui/table';
import { cn } from '@/lib/cn';
import { formatDateTime } from '@/lib/format';
import { geminiErrorMessage, useGeminiUsage } from '../api/get-gemini-usage';
import { chartPaletteClass, seriesColor } from '../lib/chart-palette';
import { formatCount, formatPercent, formatUsd } from '../lib/format-metrics';
import { geminiModelRows, tokenShares, type GeminiWindow } from '../lib/gemini-series';
import { ChartFallback } from './chart-fallback';
import { GeminiWindowPicker } from './gemini-window-picker';
import { MetricCard, Totals } from './metric-card';
import { PanelEmpty, PanelError, PanelSkeleton } from './panel-states';

const GeminiUsageChart = lazy(() =>
  import('./gemini-usage-chart').then((m) => ({ default: m.GeminiUsageChart })),
);

const TITLE = 'Gemini Usage';

/** The models of the window: a bar of their token shares in the chart colours, and a table in words. */
function GeminiModels({ usage }: { usage: GeminiUsage }) {
  const rows = geminiModelRows(usage);
  const shares = tokenShares(rows);
  const summary = rows.map(
    (row, index) => `${row.label} (${row.model}) ${formatPercent(shares[index] ?? 0)}`,
  );
  return (
    <div className={cn('space-y-3', chartPaletteClass)}>
      <div>
        <p className="mb-1.5 text-xs text-muted-foreground">Tokens by model</p>
        <div
          role="img"
          aria-label={`Tokens by model: ${summary.join(', ')}`}
          className="flex h-2.5 w-full gap-px overflow-hidden rounded-full bg-muted"
        >
          {rows.map((row, index) => (
            <div
              key={row.model}
              style={{ width: `${shares[index] ?? 0}%`, background: seriesColor(index) }}
            />
          ))}
        </div>
      </div>
      <Table aria-label="Gemini models">
        <thead>
          <tr>
            <Th>Model</Th>
            <Th className="text-right">Requests</Th>
            <Th className="text-right">Tokens</Th>
            <Th className="text-right">Share</Th>
            <Th className="text-right">Cost</Th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row, index) => (
            <tr key={row.model}>
              <Td>
                <div className="flex items-center gap-2">
                  <span
                    aria-hidden
                    className="size-2.5 shrink-0 rounded-full"
                    style={{ background: seriesColor(index) }}
                  />
                  <div className="min-w-0">
                    <p className="font-medium whitespace-nowrap">{row.label}</p>
                    <p className="font-mono text-xs text-muted-foreground">{row.model}</p>
                  </div>
                </div>
              </Td>
              <Td className="text-right tabular-nums">{formatCount(row.requests)}</Td>
              <Td className="text-right tabular-nums">{formatCount(row.tokens)}</Td>
              <Td className="text-right tabular-nums">{formatPercent(shares[index] ?? 0)}</Td>
              <Td className="text-right tabular-nums">{formatUsd(row.cost)}</Td>
            </tr>
          ))}
        </tbody>
      </Table>
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
      description={`Last ${hours} hours`}
      aside={<GeminiWindowPicker value={hours} onChange={onHoursChange} />}
    >
      {usage.isPending && <PanelSkeleton label={TITLE} rows={6} />}
      {usage.isError && !data && (
        <PanelError message={geminiErrorMessage(usage.error)} onRetry={() => void usage.refetch()} />
      )}
      {data && empty && <PanelEmpty>No Gemini calls were reported in the last {hours} hours.</PanelEmpty>}
      {data && !empty && (
        <div className="space-y-4">
          <Totals
            items={[
              { label: 'Requests', value: formatCount(data.summary.total_requests) },
              { label: 'Tokens', value: formatCount(data.summary.total_tokens) },
              { label: 'Cost', value: formatUsd(data.summary.total_cost) },
              { label: 'Last call', value: formatDateTime(data.last_updated, 'None') },
            ]}
          />
          <Suspense fallback={<ChartFallback />}>
            <GeminiUsageChart usage={data} hours={hours} />
          </Suspense>
          <GeminiModels usage={data} />
        </div>
      )}
    </MetricCard>
  );
}
