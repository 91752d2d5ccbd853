import type { GeminiUsage } from '@lumi/contract';
import {
  Bar,
  BarChart,
  CartesianGrid,
  ResponsiveContainer,
  Tooltip,
  YAxis,
  type TooltipContentProps,
  type TooltipValueType,
} from 'recharts';
import { cn } from '@/lib/cn';
import { axisStyle, chartPaletteClass, chartTheme, seriesColor } from '../lib/chart-palette';
import { formatCurrency } from '@/lib/format';
import { formatCompact, formatCount } from '../lib/format-metrics';
import {
  geminiAxisLabel,
  geminiDayTicks,
  geminiLabelKind,
  geminiSummary,
  geminiTooltipLabel,
  type GeminiWindow,
} from '../lib/gemini-series';
import { FittedAxis } from './fitted-axes';

type Hour = GeminiUsage['time_series'][number];

/** The hour under the pointer: its time, tokens, requests and cost. */
function HourTooltip({ active, payload }: TooltipContentProps<TooltipValueType, string | number>) {
  const hour = payload?.[0]?.payload as Hour | undefined;
  if (!active || !hour) return null;
  return (
    <div style={chartTheme.tooltip.contentStyle} className="space-y-0.5 px-3 py-2">
      <p className="font-semibold">{geminiTooltipLabel(hour.timestamp)}</p>
      <p>{formatCount(hour.tokens)} tokens</p>
      <p>{formatCount(hour.requests)} requests</p>
      <p>{formatCurrency(hour.cost)}</p>
    </div>
  );
}

/** Gemini tokens per hour; the week-long window labels days, the others hours (spec section 2). */
export function GeminiUsageChart({ usage, hours }: { usage: GeminiUsage; hours: GeminiWindow }) {
  const byDay = geminiLabelKind(hours) === 'day';
  const dayTicks = byDay ? geminiDayTicks(usage.time_series) : undefined;
  return (
    <div role="img" aria-label={geminiSummary(usage, hours)} className={cn('h-64 w-full', chartPaletteClass)}>
      <ResponsiveContainer width="100%" height="100%" initialDimension={{ width: 600, height: 256 }}>
        <BarChart
          data={usage.time_series}
          margin={{ top: 8, right: 12, bottom: 0, left: 0 }}
          accessibilityLayer={false}
        >
          <CartesianGrid stroke={chartTheme.grid} strokeDasharray="3 3" vertical={false} />
          <FittedAxis
            dataKey="timestamp"
            tickFormatter={(timestamp: string) => geminiAxisLabel(timestamp, hours)}
            candidates={dayTicks ?? usage.time_series.map((hour) => hour.timestamp)}
            labelWidth={byDay ? 96 : 72}
          />
          <YAxis tickFormatter={formatCompact} {...axisStyle} width={48} allowDecimals={false} interval={0} />
          <Tooltip content={HourTooltip} cursor={{ fill: chartTheme.grid, opacity: 0.4 }} />
          <Bar
            dataKey="tokens"
            name="Tokens"
            fill={seriesColor(0)}
            radius={[2, 2, 0, 0]}
            isAnimationActive={false}
          />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
