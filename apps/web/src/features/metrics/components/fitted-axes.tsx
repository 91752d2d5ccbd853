import { useChartWidth, usePlotArea, XAxis, type XAxisProps, type XAxisTickContentProps } from 'recharts';
import { axisStyle, chartTheme } from '../lib/chart-palette';
import { fittedLabels } from '../lib/chart-scale';

interface FittedAxisProps<T> extends Omit<XAxisProps, 'interval' | 'minTickGap' | 'ticks' | 'tick'> {
  /** The values the axis could label, in order: its categories, or the series' times on a numeric axis. */
  candidates: readonly T[];
  /** The width one label and the gap after it take, in CSS pixels (the axis's 12 px text). */
  labelWidth: number;
}

/**
 * An x axis labelling as many of `candidates` as fit the plot's width (`fittedLabels`). recharts' own choice
 * (`preserveEnd` with a minimum gap) measures each label's text in the page, one forced layout per label,
 * which on a phone's CPU made most of a chart's first render (docs/benchmarks.md, "The first signed-in
 * load"). The last label ends at its point where centring it would run past the chart's edge.
 */
export function FittedAxis<T extends string | number>({
  candidates,
  labelWidth,
  tickFormatter,
  ...props
}: FittedAxisProps<T>) {
  const chartWidth = useChartWidth() ?? 0;
  const ticks = fittedLabels(candidates, usePlotArea()?.width ?? 0, labelWidth);
  const tick = ({ x, y, index, visibleTicksCount, payload }: XAxisTickContentProps) => {
    const atEdge = index === visibleTicksCount - 1 && Number(x) + labelWidth / 2 > chartWidth;
    return (
      <text
        x={x}
        y={y}
        dy="0.71em"
        textAnchor={atEdge ? 'end' : 'middle'}
        fill={chartTheme.axis}
        fontSize={12}
      >
        {tickFormatter ? tickFormatter(payload.value, index) : payload.value}
      </text>
    );
  };
  return <XAxis stroke={axisStyle.stroke} {...props} ticks={ticks} interval={0} tick={tick} />;
}
