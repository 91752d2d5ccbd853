import type { ReactNode } from 'react';
import { CartesianGrid, Legend, LineChart, ResponsiveContainer, Tooltip, YAxis } from 'recharts';
import { axisStyle, chartTheme } from '../lib/chart-palette';
import type { TimeSeriesRow } from '../lib/latency-series';
import { ChartFrame } from './chart-frame';
import { FittedAxis } from './fitted-axes';
import { seriesLines } from './series-lines';
import { dateTimeFormat } from '@/lib/intl';

/** Up to this many points each gets a dot, so a single busy hour among quiet ones still shows. */
const DOTS_UP_TO = 48;

const hourTick = dateTimeFormat(undefined, { month: 'short', day: 'numeric', hour: 'numeric' });
const dayTick = dateTimeFormat(undefined, { month: 'short', day: 'numeric' });
const hourLabel = dateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const dayLabel = dateTimeFormat(undefined, { dateStyle: 'medium' });

export interface TimeSeriesChartProps {
  /** What the chart shows, in words, for screen readers (the chart itself is an image to them). */
  summary: string;
  rows: readonly TimeSeriesRow[];
  /** One line per series: `key` is the row's value, `name` the legend's and tooltip's. */
  series: ReadonlyArray<{ key: string; name: string }>;
  /** The time the x axis spans, in ms, e.g. the answer's from and to. */
  domain: readonly [number, number];
  interval: 'hour' | 'day';
  formatValue: (value: number) => string;
  formatTick: (value: number) => string;
  /**
   * Drawn inside the chart, over its lines: recharts elements such as a ReferenceLine at `x={time in ms}`
   * (change markers). The x axis is time in ms, so a mark at any instant lands where it happened, between
   * the points.
   */
  markers?: ReactNode;
  /**
   * Called with a series' key and an interval's start when its point is clicked: the drill-down to the
   * calls behind it (docs/operators/console-guide.md, "Calls"). The panel's table offers the same by
   * keyboard.
   */
  onPointClick?: (key: string, time: number) => void;
}

/**
 * A line chart over time, one line per series. A quiet interval has no value (no percentile without
 * calls): the line joins the intervals that have one. Loaded lazily with recharts.
 */
export function TimeSeriesChart({
  summary,
  rows,
  series,
  domain,
  interval,
  formatValue,
  formatTick,
  markers,
  onPointClick,
}: TimeSeriesChartProps) {
  const tick = interval === 'hour' ? hourTick : dayTick;
  const label = interval === 'hour' ? hourLabel : dayLabel;
  return (
    <ChartFrame summary={summary} interactive={Boolean(markers) || Boolean(onPointClick)}>
      <ResponsiveContainer width="100%" height="100%" initialDimension={{ width: 600, height: 256 }}>
        <LineChart
          data={[...rows]}
          margin={{ top: 8, right: 20, bottom: 0, left: 0 }}
          accessibilityLayer={false}
        >
          <CartesianGrid stroke={chartTheme.grid} strokeDasharray="3 3" vertical={false} />
          <FittedAxis
            dataKey="t"
            type="number"
            scale="time"
            domain={[domain[0], domain[1]]}
            tickFormatter={(time: number) => tick.format(time)}
            candidates={rows.map((row) => row.t)}
            labelWidth={interval === 'hour' ? 112 : 72}
          />
          <YAxis tickFormatter={formatTick} {...axisStyle} width={56} interval={0} />
          <Tooltip
            {...chartTheme.tooltip}
            cursor={{ stroke: chartTheme.axis, strokeDasharray: '3 3' }}
            labelFormatter={(time) => label.format(Number(time))}
            formatter={(value, name) => [formatValue(Number(value)), name]}
          />
          <Legend wrapperStyle={{ fontSize: 12, color: chartTheme.axis }} />
          {seriesLines({
            series,
            valueOf: (row: TimeSeriesRow, key) => row.values[key] ?? null,
            xOf: (row) => row.t,
            dot: rows.length <= DOTS_UP_TO ? { r: 2 } : false,
            connectNulls: true,
            onPointClick,
          })}
          {markers}
        </LineChart>
      </ResponsiveContainer>
    </ChartFrame>
  );
}
