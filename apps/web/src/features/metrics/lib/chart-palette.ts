/**
 * Spec section 2: charts cycle their colours over 4 providers or models, so the names shown together take
 * the first four colours. A chart with more (the latency chart's models, say) takes the next four, so each
 * of up to eight lines has a colour of its own, not only a dash pattern of its own.
 */
export const CHART_SERIES_COLORS = [
  'var(--chart-1)',
  'var(--chart-2)',
  'var(--chart-3)',
  'var(--chart-4)',
  'var(--chart-5)',
  'var(--chart-6)',
  'var(--chart-7)',
  'var(--chart-8)',
] as const;

/** The spec's four colours: the first block of slots, and the size of each block after it. */
const BLOCK = 4;

export function seriesColor(index: number): string {
  return CHART_SERIES_COLORS[index % CHART_SERIES_COLORS.length]!;
}

/**
 * Besides its colour, each line has the dash pattern of its colour slot (colour is never the only signal):
 * solid, dashed, dotted, dash-dot, long dash, dash-dot-dot, paired dashes, sparse dots.
 */
const DASHES = ['', '6 3', '2 3', '10 3 2 3', '16 4', '10 3 2 3 2 3', '4 2 4 6', '2 6'];

/** A chart line's stroke in its colour slot: colour, dash pattern and width. */
export function seriesStroke(slot: number) {
  return { stroke: seriesColor(slot), strokeDasharray: DASHES[slot % DASHES.length], strokeWidth: 2 };
}

/** FNV-1a: a cheap, well-spread hash of a name, the same in every browser and session. */
function hashName(name: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < name.length; i += 1) {
    hash ^= name.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/**
 * The colour slot of each name shown together (models in a panel, providers in a chart). A slot follows
 * from the name, not from its rank, so a model keeps its colour when another time window re-sorts the
 * rows. Names take slots in alphabetical order, so the outcome does not depend on the rows' order: the
 * first four among the spec's four colours, each at the slot its name hashes to or the next free one; the
 * next four likewise among the four colours after them. Only with more names than colours do two share one.
 */
export function seriesSlots(names: readonly string[]): Map<string, number> {
  const slots = new Map<string, number>();
  const taken = new Set<number>();
  for (const name of [...new Set(names)].sort()) {
    if (taken.size === CHART_SERIES_COLORS.length) taken.clear();
    const block = Math.floor(taken.size / BLOCK) * BLOCK;
    let slot = block + (hashName(name) % BLOCK);
    while (taken.has(slot)) slot = block + ((slot - block + 1) % BLOCK);
    taken.add(slot);
    slots.set(name, slot);
  }
  return slots;
}

/**
 * The series colours per theme, set as CSS variables on the element holding a chart or its legend: darker
 * on the light card, lighter on the dark one, each at least 3:1 against the card (WCAG 1.4.11). The last
 * four (green, blue, olive, red) sit between the first four's hues (violet, teal, orange, pink), inside
 * sRGB; against the card they measure 4.6:1 to 7.2:1 in the light theme and 5.7:1 to 12.5:1 in the dark.
 */
export const chartPaletteClass =
  '[--chart-1:oklch(0.5_0.2_290)] [--chart-2:oklch(0.52_0.11_210)] [--chart-3:oklch(0.58_0.15_50)] [--chart-4:oklch(0.53_0.19_350)] ' +
  '[--chart-5:oklch(0.52_0.15_145)] [--chart-6:oklch(0.46_0.15_255)] [--chart-7:oklch(0.56_0.115_100)] [--chart-8:oklch(0.48_0.17_25)] ' +
  'dark:[--chart-1:oklch(0.74_0.15_290)] dark:[--chart-2:oklch(0.76_0.11_210)] dark:[--chart-3:oklch(0.78_0.14_70)] dark:[--chart-4:oklch(0.74_0.16_350)] ' +
  'dark:[--chart-5:oklch(0.75_0.17_145)] dark:[--chart-6:oklch(0.68_0.14_255)] dark:[--chart-7:oklch(0.88_0.15_105)] dark:[--chart-8:oklch(0.68_0.18_25)]';

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

/**
 * An axis's line and tick labels in the theme's colours, the same on every chart. A label has no width of
 * its own: given the axis's, recharts' Text measures each of its words in the page to wrap them, and a
 * tick label never wraps.
 */
export const axisStyle = {
  stroke: chartTheme.grid,
  tick: { fill: chartTheme.axis, fontSize: 12, width: undefined },
} as const;
