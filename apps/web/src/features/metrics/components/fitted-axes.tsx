import { useChartWidth, XAxis, type XAxisProps } from 'recharts';
import { axisStyle } from '../lib/chart-palette';

interface FittedAxisProps extends Omit<XAxisProps, 'interval' | 'minTickGap'> {
  /** The width one label and the gap after it take, in CSS pixels (the axis's 12 px text). */
  labelWidth: number;
}

/** How many labels of `labelWidth` fit the chart's width. */
function useLabelsThatFit(labelWidth: number): number {
  return Math.max(1, Math.floor((useChartWidth() ?? 0) / labelWidth));
}

/*
 * recharts' own choice of labels (`preserveEnd` with a minimum gap) measures each label's text in the page,
 * one forced layout per label, which on a phone's CPU made most of a chart's first render
 * (docs/benchmarks.md, "The first signed-in load"). These axes choose from the chart's width instead.
 */

/** How many labels to step over between two shown, so that `count` labels fit. */
function stepFor(count: number, fit: number): number {
  return Math.max(1, Math.ceil(count / fit));
}

/** An x axis of days or hours showing every n-th of its `count` labels (its categories, or its `ticks`). */
export function CategoryAxis({ count, labelWidth, ...props }: FittedAxisProps & { count: number }) {
  const step = stepFor(count, useLabelsThatFit(labelWidth));
  return <XAxis {...axisStyle} {...props} interval={step - 1} />;
}

/** A numeric time axis labelling every n-th of the series' times (`times`, in order), as many as fit. */
export function TimeAxis({
  times,
  labelWidth,
  ...props
}: Omit<FittedAxisProps, 'ticks'> & { times: readonly number[] }) {
  const step = stepFor(times.length, useLabelsThatFit(labelWidth));
  const ticks = times.filter((_, i) => i % step === 0);
  return <XAxis {...axisStyle} {...props} ticks={ticks} interval={0} />;
}
