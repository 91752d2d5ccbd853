import type { ReactElement } from 'react';
import { Line, type LineProps } from 'recharts';
import { seriesSlots, seriesStroke } from '../lib/chart-palette';
import { ActiveDot } from './active-dot';

interface SeriesLinesOptions<Row, X extends string | number> {
  /** One line per series: `key` names its values, `name` is the legend's and tooltip's. */
  series: ReadonlyArray<{ key: string; name: string }>;
  /** A row's value of a series; null where the row has none. */
  valueOf: (row: Row, key: string) => number | null;
  /** Where a row sits on the x axis (its day or time), which a clicked point reports. */
  xOf: (row: Row) => X;
  dot: LineProps['dot'];
  /** Join the rows that have a value across those that have none. */
  connectNulls?: boolean;
  /** A series' point was clicked: the drill-down to what is behind it. */
  onPointClick?: (key: string, x: X) => void;
}

/**
 * The lines of a line chart, one per series, each in its colour slot and dash pattern (chart-palette.ts),
 * with points that are clickable when the chart drills down. A function, not a component: recharts reads
 * its lines as the chart's own children.
 */
export function seriesLines<Row, X extends string | number>({
  series,
  valueOf,
  xOf,
  dot,
  connectNulls = false,
  onPointClick,
}: SeriesLinesOptions<Row, X>): ReactElement[] {
  const slots = seriesSlots(series.map((line) => line.key));
  return series.map((line) => (
    <Line
      key={line.key}
      name={line.name}
      type="monotone"
      dataKey={(row: Row) => valueOf(row, line.key)}
      {...seriesStroke(slots.get(line.key) ?? 0)}
      dot={dot}
      connectNulls={connectNulls}
      activeDot={
        onPointClick
          ? (point: { cx?: number; cy?: number; fill?: string; payload?: Row }) => (
              <ActiveDot
                key={`${line.key}:${point.payload && xOf(point.payload)}`}
                cx={point.cx}
                cy={point.cy}
                fill={point.fill}
                onClick={() => point.payload && onPointClick(line.key, xOf(point.payload))}
              />
            )
          : { r: 4 }
      }
      legendType="plainline"
      isAnimationActive={false}
    />
  ));
}
