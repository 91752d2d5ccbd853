import type { LlmUsage } from '@lumi/contract';
import { useMemo, type ReactNode } from 'react';
import { CartesianGrid, Legend, LineChart, ResponsiveContainer, Tooltip, YAxis } from 'recharts';
import { axisStyle, chartTheme } from '../lib/chart-palette';
import { formatCompact, formatCount } from '../lib/format-metrics';
import { llmUsageSummary, toLlmUsageSeries, type LlmUsageRow } from '../lib/llm-usage-series';
import { FittedAxis } from './fitted-axes';
import { ChartFrame } from './chart-frame';
import { seriesLines } from './series-lines';
import { dateTimeFormat } from '@/lib/intl';

const shortDay = dateTimeFormat(undefined, { month: 'short', day: 'numeric' });
const longDay = dateTimeFormat(undefined, { dateStyle: 'medium' });
/** Days are calendar dates (YYYY-MM-DD), read as local dates so they do not shift a day. */
const dayOf = (date: string) => new Date(`${date}T00:00:00`);

interface LlmUsageChartProps {
  usage: LlmUsage;
  days: number;
  /**
   * Drawn inside the chart, over its lines: recharts elements such as a ReferenceLine (change markers).
   * The x axis is the calendar day (`YYYY-MM-DD`, as `usage.daily_usage[].date`), so a mark sits on its day.
   */
  markers?: ReactNode;
  /** A provider's day was clicked: its calls are that provider's over that day (the Calls tab). */
  onPointClick?: (provider: string, date: string) => void;
}

/** The LLM Usage line chart: tokens per day, one line per provider. Loaded lazily with recharts. */
export function LlmUsageChart({ usage, days, markers, onPointClick }: LlmUsageChartProps) {
  const { providers, rows } = useMemo(() => toLlmUsageSeries(usage), [usage]);
  const series = useMemo(() => providers.map((provider) => ({ key: provider, name: provider })), [providers]);
  return (
    <ChartFrame
      summary={llmUsageSummary(usage, days)}
      interactive={Boolean(markers) || Boolean(onPointClick)}
    >
      <ResponsiveContainer width="100%" height="100%" initialDimension={{ width: 600, height: 256 }}>
        <LineChart data={rows} margin={{ top: 8, right: 20, bottom: 0, left: 0 }} accessibilityLayer={false}>
          <CartesianGrid stroke={chartTheme.grid} strokeDasharray="3 3" vertical={false} />
          <FittedAxis
            dataKey="date"
            tickFormatter={(date: string) => shortDay.format(dayOf(date))}
            candidates={rows.map((row) => row.date)}
            labelWidth={56}
          />
          <YAxis tickFormatter={formatCompact} {...axisStyle} width={48} allowDecimals={false} interval={0} />
          <Tooltip
            {...chartTheme.tooltip}
            cursor={{ stroke: chartTheme.axis, strokeDasharray: '3 3' }}
            labelFormatter={(date) => longDay.format(dayOf(String(date)))}
            formatter={(value, provider) => [`${formatCount(Number(value))} tokens`, provider]}
          />
          <Legend wrapperStyle={{ fontSize: 12, color: chartTheme.axis }} />
          {seriesLines({
            series,
            valueOf: (row: LlmUsageRow, provider) => row.tokens[provider] ?? 0,
            xOf: (row) => row.date,
            dot: false,
            onPointClick,
          })}
          {markers}
        </LineChart>
      </ResponsiveContainer>
    </ChartFrame>
  );
}
