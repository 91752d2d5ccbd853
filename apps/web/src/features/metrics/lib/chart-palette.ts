/** Spec section 2: charts cycle their colours over 4 providers or models. */
export const CHART_SERIES_COLORS = [
  'var(--chart-1)',
  'var(--chart-2)',
  'var(--chart-3)',
  'var(--chart-4)',
] as const;

export function seriesColor(index: number): string {
  return CHART_SERIES_COLORS[index % CHART_SERIES_COLORS.length]!;
}

/**
 * The four series colours per theme, set as CSS variables on the element holding a chart or its legend:
 * darker on the light card, lighter on the dark one, each at least 3:1 against the card.
 */
export const chartPaletteClass =
  '[--chart-1:oklch(0.5_0.2_290)] [--chart-2:oklch(0.52_0.11_210)] [--chart-3:oklch(0.58_0.15_50)] [--chart-4:oklch(0.53_0.19_350)] ' +
  'dark:[--chart-1:oklch(0.74_0.15_290)] dark:[--chart-2:oklch(0.76_0.11_210)] dark:[--chart-3:oklch(0.78_0.14_70)] dark:[--chart-4:oklch(0.74_0.16_350)]';

/** Axis, grid and tooltip colours from the theme's tokens, so charts read well in light and dark. */
export const chartTheme = {
  axis: 'var(--muted-foreground)',
  grid: 'var(--border)',
  tooltip: {
    contentStyle: {
      background: 'var(--card)',
      border: '1px solid var(--border)',
      borderRadius: 6,
      color: 'var(--card-foreground)',
      fontSize: 12,
    },
    labelStyle: { color: 'var(--card-foreground)', fontWeight: 600 },
    itemStyle: { color: 'var(--card-foreground)' },
  },
} as const;
